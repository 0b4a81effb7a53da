import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The library runs in browsers and Node with web APIs only: it may import itself, pure code from
// schema/wire and core, and zod/mini (the wire schemas). Tests and their fakes may use Node.
const libraryFiles = readdirSync(new URL(".", import.meta.url))
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && name !== "test-fakes.ts")
  .sort();

function importsOf(source: string): string[] {
  return [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g),
    ...source.matchAll(/(?:^|\n)\s*import\s+"([^"]+)"/g),
    ...source.matchAll(/import\(\s*"([^"]+)"\s*\)/g),
  ].map((m) => m[1] as string);
}

describe("sdk imports", () => {
  it("finds the library files", () => {
    expect(libraryFiles).toEqual([
      "authorization.ts",
      "client.ts",
      "errors.ts",
      "index.ts",
      "list.ts",
      "pkce.ts",
      "sign-in.ts",
      "socket.ts",
      "storage.ts",
      "tokens.ts",
    ]);
  });

  it.each(libraryFiles)("%s imports only the SDK, schema/wire, core and zod/mini", (name) => {
    const source = readFileSync(new URL(name, import.meta.url), "utf8");
    const bad = importsOf(source).filter((path) => !/^\.\/[a-z-]+$/.test(path) && !/^\.\.\/(schema\/wire|core)\//.test(path) && path !== "zod/mini");
    expect(bad).toEqual([]);
  });

  it("the schema/wire modules the SDK uses stay free of Node and full zod", () => {
    for (const name of ["api-list.ts", "data-socket.ts"]) {
      const source = readFileSync(new URL(`../schema/wire/${name}`, import.meta.url), "utf8");
      expect(importsOf(source).filter((path) => path.startsWith("node:") || path === "zod")).toEqual([]);
    }
  });
});
