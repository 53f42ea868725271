-- A prompt's city (issue 11): the location engines that accept one get with the country.
ALTER TABLE "prompts" ADD COLUMN "city" TEXT;
