-- The GigaChat adapter (lib/providers/gigachat.ts): Sber's chat completions API.
ALTER TYPE "ProviderAdapter" ADD VALUE 'gigachat';
