import { z } from "zod";

export const apiKeyNameSchema = z.object({ name: z.string().trim().min(1, "Name the key after what uses it").max(60, "Use at most 60 characters") });
