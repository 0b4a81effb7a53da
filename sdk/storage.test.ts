import { describe, expect, it, vi } from "vitest";
import { defaultTokenStorage, LocalStorageTokenStorage, MemoryTokenStorage, type WebStorageLike } from "./storage";

function fakeWebStorage(): WebStorageLike & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe("token storage", () => {
  it("keeps values in memory", () => {
    const storage = new MemoryTokenStorage();
    expect(storage.get("access_token")).toBeNull();
    storage.set("access_token", "a");
    expect(storage.get("access_token")).toBe("a");
    storage.remove("access_token");
    expect(storage.get("access_token")).toBeNull();
  });

  it("prefixes localStorage keys by client id, so two apps on one origin keep apart", () => {
    const web = fakeWebStorage();
    const one = new LocalStorageTokenStorage("app-1", web);
    const two = new LocalStorageTokenStorage("app-2", web);
    one.set("refresh_token", "r1");
    two.set("refresh_token", "r2");
    expect([...web.items.keys()].sort()).toEqual(["z4-data-api:app-1:refresh_token", "z4-data-api:app-2:refresh_token"]);
    expect(one.get("refresh_token")).toBe("r1");
    one.remove("refresh_token");
    expect(one.get("refresh_token")).toBeNull();
    expect(two.get("refresh_token")).toBe("r2");
  });

  it("defaults to localStorage where there is one, else memory", () => {
    const web = fakeWebStorage();
    vi.stubGlobal("localStorage", web);
    try {
      const storage = defaultTokenStorage("app-1");
      expect(storage).toBeInstanceOf(LocalStorageTokenStorage);
      storage.set("access_token", "a");
      expect(web.items.get("z4-data-api:app-1:access_token")).toBe("a");
      vi.stubGlobal("localStorage", undefined);
      expect(defaultTokenStorage("app-1")).toBeInstanceOf(MemoryTokenStorage);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
