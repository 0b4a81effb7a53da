import { describe, expect, it } from "vitest";
import { keypadUrlsFor, parseCli } from "./main";

describe("npm run serverbox's command line", () => {
  it("takes races and the web keypads' listener, and says what is wrong with a bad port", () => {
    const cli = parseCli(["race", "r1", "r2", "--port", "8790", "--lan", "8791"]);
    expect(cli).toMatchObject({ raceIds: ["r1", "r2"], port: 8790, lan: { host: "0.0.0.0", port: 8791 } });
    expect(parseCli([])).toMatchObject({ port: 8788, lan: null });
    expect(parseCli(["--lan", "8789", "--lan-host", "192.168.1.20"])).toMatchObject({ lan: { host: "192.168.1.20", port: 8789 } });
    expect(parseCli(["--lan", "8788"])).toBe('--lan must be a port number other than --port, not "8788"');
    expect(parseCli(["--lan", "keypad"])).toBe('--lan must be a port number other than --port, not "keypad"');
    expect(parseCli(["--port", "70000"])).toBe('--port must be a port number, not "70000"');
    expect(parseCli(["times", "r1"])).toMatch(/^Usage: npm run serverbox -- \[race <raceId>/);
  });

  it("names the address phones open: the one given, or this machine's own on its networks", () => {
    expect(keypadUrlsFor("192.168.1.20", 8789)).toEqual(["http://192.168.1.20:8789/keypad"]);
    expect(keypadUrlsFor("fe80::1", 8789)).toEqual(["http://[fe80::1]:8789/keypad"]);
    for (const url of keypadUrlsFor("0.0.0.0", 8789)) expect(url).toMatch(/^http:\/\/\d+\.\d+\.\d+\.\d+:8789\/keypad$/);
  });
});
