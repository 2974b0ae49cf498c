/**
 * The entity tree's one rule a schema cannot state (reference §2.10: an entity's parent is another entity):
 * following parents from any entity ends at a root, never back where it started.
 */

/**
 * Whether giving entity `id` the parent `parentId` would make a cycle: `parentId` is `id` itself, or `id` is
 * among the parent's ancestors.
 * @param parents every live entity of the organization with its current parent's id (null for a root).
 */
export function makesCycle(parents: ReadonlyMap<string, string | null>, id: string, parentId: string): boolean {
  const seen = new Set<string>()
  for (let current: string | null | undefined = parentId; current; current = parents.get(current)) {
    if (current === id) return true
    // A cycle already stored elsewhere (never written by Kassa) must not loop for ever.
    if (seen.has(current)) return false
    seen.add(current)
  }
  return false
}
