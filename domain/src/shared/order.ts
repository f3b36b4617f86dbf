/**
 * Ascending order by a key that compares with `<` (strings by code unit, numbers, bigints): the
 * comparator Array.prototype.sort takes. Read-side lists sort by symbol, stream position or revision,
 * which must not depend on the locale (localeCompare would).
 */
export function ascendingBy<T, K extends string | number | bigint>(key: (item: T) => K): (a: T, b: T) => number {
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}
