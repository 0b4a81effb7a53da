import type { StorageLike } from "../../../app/components/keypad-store";

/** localStorage or sessionStorage in memory, keys in insertion order as browsers keep them. */
export function memoryStorage(): StorageLike {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, String(value)),
    removeItem: (key) => void map.delete(key),
  };
}
