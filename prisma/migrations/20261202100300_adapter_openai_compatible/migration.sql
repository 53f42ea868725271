-- OpenAI-compatible chat completions servers (DeepSeek, xAI Grok, Mistral, vLLM, Ollama): base URL
-- and the name of the key's environment variable are in the connection's settings.
ALTER TYPE "ProviderAdapter" ADD VALUE 'openai_compatible';
