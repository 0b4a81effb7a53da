/**
 * Timing devices (timing.md section 3): the device type table as data, the TimingDevice defaults, and
 * how a device is named and whether it is connected.
 */

/** A channel a device can report on: `value` is what is stored, `label` what the form shows. */
export interface DeviceChannel {
  value: string;
  label: string;
}

export interface DeviceCapabilities {
  /** Can display a keypad for typing bibs. */
  keypad: boolean;
  /** Reads chips (a chip number identifies the racer). */
  chips: boolean;
  /** Can record chip reads and pings. */
  chipAndPings: boolean;
  /** Can take photos. */
  photos: boolean;
  /** Can test chips. */
  testChips: boolean;
}

export interface DeviceType {
  key: DeviceTypeKey;
  label: string;
  /** Seconds; null where the spec does not show one. */
  accuracy: number | null;
  /** Decimal places of a second; null where the spec does not show one. */
  precision: number | null;
  /** Its reads carry bib numbers. */
  hasBibs: boolean;
  showOnGrid: boolean;
  /** Columns shown for this type besides the time and bib. */
  extraColumns: readonly string[];
  /** Empty when the type has no channel choice. */
  channels: readonly DeviceChannel[];
  capabilities: DeviceCapabilities;
}

export const DEVICE_TYPE_KEYS = [
  "impinj",
  "plunger",
  "photocell",
  "summit",
  "webkeypad",
  "ziegfried",
  "android",
  "iphone",
  "idcamera",
  "photofinish",
  "gochipactivator",
  "gochipentry",
  "other",
] as const;
export type DeviceTypeKey = (typeof DEVICE_TYPE_KEYS)[number];

const NO_CAPABILITIES: DeviceCapabilities = { keypad: false, chips: false, chipAndPings: false, photos: false, testChips: false };

/** The table's rows; hasBibs and showOnGrid not given by the spec default to true (a timer that reports bibs). */
function deviceType(
  key: DeviceTypeKey,
  label: string,
  accuracy: number | null,
  precision: number | null,
  rest: Partial<Omit<DeviceType, "key" | "label" | "accuracy" | "precision" | "capabilities">> & { capabilities?: Partial<DeviceCapabilities> } = {},
): DeviceType {
  const { capabilities, ...other } = rest;
  return {
    key,
    label,
    accuracy,
    precision,
    hasBibs: true,
    showOnGrid: true,
    extraColumns: [],
    channels: [],
    ...other,
    capabilities: { ...NO_CAPABILITIES, ...capabilities },
  };
}

export const DEVICE_TYPES: Readonly<Record<DeviceTypeKey, DeviceType>> = {
  impinj: deviceType("impinj", "Impinj (Passive Chip Reader)", 0.5, 1, {
    hasBibs: false,
    extraColumns: ["Batch", "Version", "Count"],
    capabilities: { chips: true },
  }),
  plunger: deviceType("plunger", "Plunger", 0.1, null, { hasBibs: false }),
  photocell: deviceType("photocell", "Photocell", 0.05, null, { hasBibs: false }),
  summit: deviceType("summit", "Summit Timer", 0.2, 4, {
    extraColumns: ["Channel"],
    channels: [{ value: "all", label: "All Times" }, ...["1", "2", "3", "4", "9"].map((channel) => ({ value: channel, label: channel }))],
  }),
  webkeypad: deviceType("webkeypad", "Web Keypad", 0.2, 1, { capabilities: { keypad: true } }),
  ziegfried: deviceType("ziegfried", "Ziegfried", 0.5, 1),
  android: deviceType("android", "Android Phone", 0.5, 1, {
    extraColumns: ["Type"],
    channels: [
      { value: "keypad", label: "Keypad Times" },
      { value: "enter", label: "Chip Pings" },
    ],
    capabilities: { chips: true, chipAndPings: true },
  }),
  iphone: deviceType("iphone", "iPhone", 0.5, null),
  idcamera: deviceType("idcamera", "ID Camera", null, null, { hasBibs: false, showOnGrid: false, capabilities: { photos: true } }),
  photofinish: deviceType("photofinish", "Photofinish Camera", 0.001, 3),
  gochipactivator: deviceType("gochipactivator", "GoChip Activator", 0.001, 3, {
    hasBibs: false,
    extraColumns: ["Hex Code"],
    capabilities: { chips: true, testChips: true },
  }),
  gochipentry: deviceType("gochipentry", "GoChip Entry Device", 1, 0),
  other: deviceType("other", "Other Timing Device", 1, 0),
};

export function isDeviceTypeKey(value: string): value is DeviceTypeKey {
  return (DEVICE_TYPE_KEYS as readonly string[]).includes(value);
}

/** Device types in the spec's table order, for a type picker. */
export function deviceTypesInOrder(): DeviceType[] {
  return DEVICE_TYPE_KEYS.map((key) => DEVICE_TYPES[key]);
}

/** A TimingDevice's own accuracy (seconds) and precision when none is set. */
export const TIMING_DEVICE_DEFAULTS = { accuracy: 0.5, precision: 0 } as const;

/** Device kinds that may feed biathlon range data (section 2: keypad, android keypad, summit, generic). */
export const RANGE_DATA_DEVICE_TYPES: readonly DeviceTypeKey[] = ["webkeypad", "android", "summit", "other"];

export const TIMING_SERVER_TYPES = [
  { key: "webserver", label: "Internet Server" },
  { key: "serverbox", label: "Local Server" },
  { key: "webclient", label: "WebClient" },
] as const;
export type TimingServerType = (typeof TIMING_SERVER_TYPES)[number]["key"];

/** How a device serves a timing point (a TimingPoint devices_list entry's mode). */
export const TIMING_POINT_DEVICE_MODES = ["timing", "backup", "precall", "oncourse"] as const;
export type TimingPointDeviceMode = (typeof TIMING_POINT_DEVICE_MODES)[number];

export interface DeviceNaming {
  name?: string | null;
  humanname?: string | null;
  deviceNumber?: string | number | null;
  /** A device type key; unknown or missing types name the device "Unconfigured". */
  type?: string | null;
}

/** The name; else the humanname and device number ("Finish 3"); else "Unconfigured" and the type label. */
export function deviceDisplayName(device: DeviceNaming): string {
  const name = device.name?.trim();
  if (name) return name;
  const humanname = device.humanname?.trim();
  if (humanname) {
    const number = device.deviceNumber === null || device.deviceNumber === undefined ? "" : String(device.deviceNumber).trim();
    return number ? `${humanname} ${number}` : humanname;
  }
  return device.type && isDeviceTypeKey(device.type) ? `Unconfigured ${DEVICE_TYPES[device.type].label}` : "Unconfigured";
}

/** A device is connected when connected_to is set (to the server it reports through). */
export function isConnected(device: { connectedTo?: string | null }): boolean {
  return Boolean(device.connectedTo?.trim());
}
