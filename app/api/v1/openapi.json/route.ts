import { openApiDocument } from "@/lib/api/openapi";

/** The API description (OpenAPI 3.1); public, it holds no workspace data. */
export function GET() {
  return Response.json(openApiDocument);
}
