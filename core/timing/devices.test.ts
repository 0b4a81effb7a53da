import { describe, expect, it } from "vitest";
import {
  type DeviceCapabilities,
  DEVICE_TYPE_KEYS,
  DEVICE_TYPES,
  deviceDisplayName,
  deviceTypesInOrder,
  isConnected,
  isDeviceTypeKey,
  TIMING_DEVICE_DEFAULTS,
  TIMING_POINT_DEVICE_MODES,
  TIMING_SERVER_TYPES,
} from "./devices";

describe("DEVICE_TYPES", () => {
  it("has the spec's labels, accuracy and precision in table order", () => {
    expect(deviceTypesInOrder().map((t) => [t.label, t.accuracy, t.precision])).toEqual([
      ["Impinj (Passive Chip Reader)", 0.5, 1],
      ["Plunger", 0.1, null],
      ["Photocell", 0.05, null],
      ["Summit Timer", 0.2, 4],
      ["Web Keypad", 0.2, 1],
      ["Ziegfried", 0.5, 1],
      ["Android Phone", 0.5, 1],
      ["iPhone", 0.5, null],
      ["ID Camera", null, null],
      ["Photofinish Camera", 0.001, 3],
      ["GoChip Activator", 0.001, 3],
      ["GoChip Entry Device", 1, 0],
      ["Other Timing Device", 1, 0],
    ]);
  });

  it("keys each row by its own key", () => {
    for (const key of DEVICE_TYPE_KEYS) expect(DEVICE_TYPES[key].key).toBe(key);
  });

  it("marks the devices without bibs and the one kept off the grid", () => {
    expect(DEVICE_TYPES.plunger.hasBibs).toBe(false);
    expect(DEVICE_TYPES.photocell.hasBibs).toBe(false);
    expect(DEVICE_TYPES.idcamera.hasBibs).toBe(false);
    expect(DEVICE_TYPES.summit.hasBibs).toBe(true);
    expect(DEVICE_TYPES.idcamera.showOnGrid).toBe(false);
    for (const key of ["impinj", "plunger", "photocell", "photofinish"] as const) expect(DEVICE_TYPES[key].showOnGrid).toBe(true);
  });

  it("lists the extra columns", () => {
    expect(DEVICE_TYPES.impinj.extraColumns).toEqual(["Batch", "Version", "Count"]);
    expect(DEVICE_TYPES.summit.extraColumns).toEqual(["Channel"]);
    expect(DEVICE_TYPES.android.extraColumns).toEqual(["Type"]);
    expect(DEVICE_TYPES.gochipactivator.extraColumns).toEqual(["Hex Code"]);
    expect(DEVICE_TYPES.other.extraColumns).toEqual([]);
  });

  it("offers the Summit and Android channels", () => {
    expect(DEVICE_TYPES.summit.channels.map((c) => c.label)).toEqual(["All Times", "1", "2", "3", "4", "9"]);
    expect(DEVICE_TYPES.android.channels).toEqual([
      { value: "keypad", label: "Keypad Times" },
      { value: "enter", label: "Chip Pings" },
    ]);
    expect(DEVICE_TYPES.webkeypad.channels).toEqual([]);
  });

  it("gives each capability to the devices the spec names", () => {
    const withCapability = (capability: keyof DeviceCapabilities) => DEVICE_TYPE_KEYS.filter((key) => DEVICE_TYPES[key].capabilities[capability]);
    expect(withCapability("keypad")).toEqual(["webkeypad"]);
    expect(withCapability("chipAndPings")).toEqual(["android"]);
    expect(withCapability("photos")).toEqual(["idcamera"]);
    expect(withCapability("testChips")).toEqual(["gochipactivator"]);
    expect(withCapability("chips")).toEqual(["impinj", "android", "gochipactivator"]);
  });

  it("knows its keys", () => {
    expect(isDeviceTypeKey("summit")).toBe(true);
    expect(isDeviceTypeKey("Summit")).toBe(false);
  });
});

describe("device constants", () => {
  it("defaults a TimingDevice to accuracy 0.5 and precision 0", () => {
    expect(TIMING_DEVICE_DEFAULTS).toEqual({ accuracy: 0.5, precision: 0 });
  });

  it("names the timing server subtypes and the timing point modes", () => {
    expect(TIMING_SERVER_TYPES.map((t) => t.label)).toEqual(["Internet Server", "Local Server", "WebClient"]);
    expect(TIMING_POINT_DEVICE_MODES).toEqual(["timing", "backup", "precall", "oncourse"]);
  });
});

describe("deviceDisplayName", () => {
  it("prefers the name", () => {
    expect(deviceDisplayName({ name: "Finish Line", humanname: "Keypad", deviceNumber: 3, type: "webkeypad" })).toBe("Finish Line");
  });

  it("falls back to the humanname and device number", () => {
    expect(deviceDisplayName({ name: " ", humanname: "Keypad", deviceNumber: 3, type: "webkeypad" })).toBe("Keypad 3");
    expect(deviceDisplayName({ humanname: "Keypad", deviceNumber: null })).toBe("Keypad");
  });

  it("else says Unconfigured and the type", () => {
    expect(deviceDisplayName({ type: "summit" })).toBe("Unconfigured Summit Timer");
    expect(deviceDisplayName({ type: "nonsense" })).toBe("Unconfigured");
    expect(deviceDisplayName({})).toBe("Unconfigured");
  });
});

describe("isConnected", () => {
  it("is true only when connected_to is set", () => {
    expect(isConnected({ connectedTo: "server-1" })).toBe(true);
    expect(isConnected({ connectedTo: "" })).toBe(false);
    expect(isConnected({ connectedTo: null })).toBe(false);
    expect(isConnected({})).toBe(false);
  });
});
