ALTER TYPE "ProviderAdapter" ADD VALUE 'yandex_search';
ALTER TYPE "ProviderAdapter" ADD VALUE 'yandexgpt';
