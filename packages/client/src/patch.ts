import type { PathsWithMethod } from 'openapi-typescript-helpers'
import type { KassaClient } from './client.js'
import type { paths } from './generated/openapi.js'

/** The paths that take a JSON Patch. */
export type PatchPath = PathsWithMethod<paths, 'patch'>

type PatchOperation<Path extends PatchPath> = paths[Path]['patch']

/** RFC 6902 operations, as the OpenAPI document declares them for `Path`. */
export type JsonPatch<Path extends PatchPath> = NonNullable<PatchOperation<Path>['requestBody']>['content']['application/json-patch+json']

type Patched<Path extends PatchPath> = PatchOperation<Path> extends { responses: { 200: { content: { 'application/json': infer Resource } } } } ? Resource : never

export interface PatchResourceOptions<Path extends PatchPath> {
  params: { path: PatchOperation<Path>['parameters']['path'] }
  /** The resource's `etag`, sent verbatim as If-Match (spec: Request headers). */
  etag: string
  operations: JsonPatch<Path>
}

/**
 * Applies a JSON Patch (RFC 6902) to the resource at `path` if it is still at `etag`; answers the updated
 * resource. A stale etag throws a KassaApiError 412 (`precondition_failed`): read the resource again and
 * decide anew, rather than patching blindly.
 */
export async function patchResource<Path extends PatchPath>(
  client: KassaClient,
  path: Path,
  { params, etag, operations }: PatchResourceOptions<Path>,
): Promise<Patched<Path>> {
  const patch = client.PATCH as unknown as (
    path: string,
    init: { params: unknown; body: unknown; headers: Record<string, string> },
  ) => Promise<{ data: Patched<Path> }>
  const { data } = await patch(path, {
    params: { ...params, header: { 'if-match': etag } },
    body: operations,
    headers: { 'Content-Type': 'application/json-patch+json' },
  })
  return data
}
