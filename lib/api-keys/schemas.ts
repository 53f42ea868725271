import { z } from "zod";
import { API_KEY_SCOPES } from "@/lib/permissions/api-key-scopes";
import { text } from "@/lib/validation/text";

// A one-line text as every stored name is (no control, bidi or zero-width characters).
export const apiKeyNameSchema = z.object({ name: text({ max: 60, label: "A key's name" }).pipe(z.string().min(1, "Name the key after what uses it")) });

export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, "Choose read, write or admin");

export const createApiKeySchema = apiKeyNameSchema.extend({ scope: apiKeyScopeSchema });
