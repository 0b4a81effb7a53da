import type { LockManagerLike } from "../../../app/components/keypad-tabs";

/**
 * navigator.locks for one origin, shared by the fake tabs of a test: exclusive locks, `ifAvailable` only
 * (all the keypad asks for). A lock is held until its callback's promise settles, as in browsers.
 */
export function memoryLocks(): LockManagerLike & { held: Set<string> } {
  const held = new Set<string>();
  return {
    held,
    async request(name, _options, callback) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}
