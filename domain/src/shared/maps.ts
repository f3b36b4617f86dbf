/** The map kept under `key` in `outer`, made (empty) at its first use: caches keyed by one thing, then another. */
export function innerMap<K, K2, V>(outer: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}
