/** GET /api/openapi.json: the OpenAPI 3.1 document of every endpoint, read by the API reference page. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { openApiDocumentSchema, type OpenApiDocument } from '@papertrade/domain/api/openapi-document';
import { getJson } from '../../../lib/api-client';

export const OPENAPI_PATH = '/api/openapi.json';

export function getOpenApi(signal?: AbortSignal): Promise<OpenApiDocument> {
  return getJson(OPENAPI_PATH, openApiDocumentSchema, { signal });
}

export function useOpenApi() {
  // The document changes only with a deployment.
  return useQuery(queryOptions({ queryKey: [OPENAPI_PATH] as const, queryFn: ({ signal }) => getOpenApi(signal), staleTime: Infinity }));
}
