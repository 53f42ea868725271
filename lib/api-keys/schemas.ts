import { z } from "zod";
import { API_KEY_SCOPES } from "@/lib/permissions/api-key-scopes";

export const apiKeyNameSchema = z.object({ name: z.string().trim().min(1, "Name the key after what uses it").max(60, "Use at most 60 characters") });

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, "Choose read, write or admin");

export const createApiKeySchema = apiKeyNameSchema.extend({ scope: apiKeyScopeSchema });
