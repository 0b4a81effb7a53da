// Creates the demo data in a local D1, idempotently. Usage: tsx scripts/seed.ts [persist-dir]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { initialMtimes } from "../core/entity/field-mtimes";
import { personKey } from "../core/memberships/membership";
import { memberCardSource } from "../core/passes/pass-status";
import { hashPassword } from "../workers/auth/password";
import {
  demoApp,
  demoClubs,
  demoDepot,
  demoDivision,
  demoEvents,
  demoPage,
  demoPass,
  demoRaces,
  demoRankingScheme,
  demoRegistrations,
  demoSeries,
  demoSites,
  demoUsers,
} from "./demo-data";
import { root, wranglerBin, wranglerEnv } from "./wrangler-env.mjs";

function sqlValue(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

function insert(table: string, row: Record<string, unknown>, onConflict: string): string {
  const columns = Object.keys(row);
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => sqlValue(row[c])).join(", ")}) ${onConflict};`;
}

export async function buildSeedSql(now: number): Promise<string> {
  const statements: string[] = [];
  // Field times are keyed by API field names (club, not club_id), as the data service writes them.
  const mtimes = (row: Record<string, unknown>) =>
    JSON.stringify(initialMtimes(Object.fromEntries(Object.entries(row).map(([key, value]) => [key.replace(/_id$/, ""), value])), now));
  for (const site of demoSites) {
    const fields = { hostname: site.hostname, config: JSON.stringify(site.config) };
    statements.push(insert("whitelabel_sites", { id: site.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, "ON CONFLICT(id) DO NOTHING"));
  }
  // A database seeded before sites had menus gets the demo site's menu, footer, font and French, once.
  const look = demoSites[0].config;
  statements.push(
    `UPDATE whitelabel_sites SET config = json_set(config, '$.menu', json(${sqlValue(JSON.stringify(look.menu))}), '$.footer', json(${sqlValue(JSON.stringify(look.footer))}), '$.font', ${sqlValue(look.font)}, '$.french', json('true')), version = version + 1 WHERE id = ${sqlValue(demoSites[0].id)} AND json_extract(config, '$.menu') IS NULL;`,
  );
  for (const club of demoClubs) {
    const fields = { name: club.name, sport: club.sport, country: club.country, site_id: club.siteId };
    statements.push(insert("clubs", { id: club.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, "ON CONFLICT(id) DO NOTHING"));
    // Card payments for a demo club with a Stripe account that has finished onboarding, also on a database seeded before payments existed.
    if ("stripeAccountId" in club)
      statements.push(
        `UPDATE clubs SET is_stripe = 1, stripe_account_id = ${sqlValue(club.stripeAccountId)}, stripe_charges_enabled = 1, stripe_payouts_enabled = 1, stripe_details_submitted = 1 WHERE id = ${sqlValue(club.id)} AND stripe_account_id IS NULL;`,
      );
  }
  for (const user of demoUsers) {
    const fields = { email: user.email, name: user.name, password_hash: await hashPassword(user.password) };
    // A re-seed keeps the password a developer may have changed.
    statements.push(insert("users", { id: user.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, "ON CONFLICT(id) DO NOTHING"));
    const config = user.role.type === "system_admin" ? JSON.stringify({ all: true }) : "{}";
    const role = { user_id: user.id, type: user.role.type, club_id: user.role.clubId, config };
    statements.push(insert("roles", { id: user.role.id, ...role, created_at: now, field_mtimes: mtimes(role) }, "ON CONFLICT(id) DO NOTHING"));
    for (const extra of user.extraRoles) {
      const scoped = { user_id: user.id, type: extra.type, club_id: extra.clubId, scope: extra.scope, config: "{}" };
      statements.push(insert("roles", { id: extra.id, ...scoped, created_at: now, field_mtimes: mtimes(scoped) }, "ON CONFLICT(id) DO NOTHING"));
    }
  }
  for (const race of demoRaces(now)) {
    const fields = {
      club_id: race.clubId,
      site_id: race.siteId,
      name: race.name,
      sport: race.sport,
      start_time: race.startTime,
      timezone: race.timezone,
      location: race.location,
      visibility: "public",
    };
    // Demo races move forward once their date has passed, so the demo always has an upcoming race.
    statements.push(
      insert(
        "races",
        { id: race.id, ...fields, created_at: now, field_mtimes: mtimes(fields) },
        // The demo sprint's date stays: its RaceRoom holds its qualifier's times from the first seed.
        "keepDate" in race ? "ON CONFLICT(id) DO NOTHING" : `ON CONFLICT(id) DO UPDATE SET start_time = excluded.start_time WHERE races.start_time < ${now}`,
      ),
    );
  }
  for (const registration of demoRegistrations(now)) {
    const fields = {
      club_id: registration.clubId,
      site_id: registration.siteId,
      name: registration.name,
      sport: registration.sport,
      is_approved: registration.isApproved ? 1 : 0,
      open_time: registration.openTime,
      close_time: registration.closeTime,
      gst_rate: registration.gstRate,
      raise_price_1_time: registration.raisePrice1Time,
      raise_price_2_time: registration.raisePrice2Time,
      is_bilingual: "isBilingual" in registration && registration.isBilingual ? 1 : 0,
      cancel_refund_percent: "cancelRefundPercent" in registration ? registration.cancelRefundPercent : null,
      cancel_fee: "cancelFee" in registration ? registration.cancelFee : 0,
      waitlist_offer_hours: "waitlistOfferHours" in registration ? registration.waitlistOfferHours : null,
      transfer_fee: "transferFee" in registration ? registration.transferFee : null,
    };
    statements.push(insert("registrations", { id: registration.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, "ON CONFLICT(id) DO NOTHING"));
    // A database seeded before the demo form became bilingual with a cancellation policy gets both, once.
    if ("isBilingual" in registration && registration.isBilingual)
      statements.push(
        `UPDATE registrations SET is_bilingual = 1, cancel_refund_percent = ${sqlValue(registration.cancelRefundPercent)}, cancel_fee = ${sqlValue(registration.cancelFee)} WHERE id = ${sqlValue(registration.id)} AND is_bilingual = 0 AND cancel_refund_percent IS NULL;`,
      );
    // A database seeded before the demo form had a waitlist and transfers gets them, with its Kids' 3 km, once:
    // while both settings are still unset (an organiser's later choice is kept).
    if ("waitlistOfferHours" in registration) {
      const unset = `EXISTS (SELECT 1 FROM registrations WHERE id = ${sqlValue(registration.id)} AND waitlist_offer_hours IS NULL AND transfer_fee IS NULL)`;
      for (const element of registration.elements)
        for (const option of element.optionsList ?? [])
          statements.push(
            `UPDATE form_elements SET options_list = json_insert(options_list, '$[#]', json(${sqlValue(JSON.stringify(option))})) WHERE id = ${sqlValue(element.id)} AND ${unset} AND NOT EXISTS (SELECT 1 FROM json_each(form_elements.options_list) o WHERE json_extract(o.value, '$.id') = ${sqlValue(option.id)});`,
          );
      statements.push(
        `UPDATE registrations SET waitlist_offer_hours = ${sqlValue(registration.waitlistOfferHours)}, transfer_fee = ${sqlValue(registration.transferFee)} WHERE id = ${sqlValue(registration.id)} AND waitlist_offer_hours IS NULL AND transfer_fee IS NULL;`,
      );
    }
    for (const element of registration.elements) {
      const values = {
        registration_id: registration.id,
        club_id: registration.clubId,
        site_id: registration.siteId,
        type: element.type,
        caption: element.caption,
        ordinal: element.ordinal,
        is_mandatory: element.isMandatory ? 1 : 0,
        is_taxable: element.isTaxable ? 1 : 0,
        is_admin_only: element.isAdminOnly ? 1 : 0,
        is_kiosk_mode: element.isKioskMode ? 1 : 0,
        options_list: JSON.stringify(element.optionsList ?? []),
        config: JSON.stringify(element.config ?? {}),
        price_1: element.prices?.price_1 ?? null,
        condition_element: element.condition?.element ?? null,
        condition_operator: element.condition?.operator ?? null,
        condition_value: element.condition?.value ?? null,
      };
      statements.push(insert("form_elements", { id: element.id, ...values, created_at: now, field_mtimes: mtimes(values) }, "ON CONFLICT(id) DO NOTHING"));
    }
  }
  for (const event of demoEvents(now)) {
    const fields = {
      club_id: event.clubId,
      site_id: event.siteId,
      name: event.name,
      title: event.title,
      page_url: event.pageUrl,
      year: event.year,
      start_date: event.startDate,
      end_date: event.endDate,
      sport: event.sport,
      location: event.location,
      description: event.description,
      race_ids: JSON.stringify(event.raceIds),
      registration_ids: JSON.stringify(event.registrationIds),
    };
    // The upcoming demo event moves with the demo race once its days are over; an organiser's other edits stay.
    const onConflict = event.movesForward
      ? `ON CONFLICT(id) DO UPDATE SET start_date = excluded.start_date, end_date = excluded.end_date, year = excluded.year WHERE event_pages.end_date < ${sqlValue(new Date(now).toISOString().slice(0, 10))}`
      : "ON CONFLICT(id) DO NOTHING";
    statements.push(insert("event_pages", { id: event.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, onConflict));
  }
  const page = {
    site_id: demoPage.siteId,
    club_id: demoPage.clubId,
    title: demoPage.title,
    path: demoPage.path,
    body: JSON.stringify(demoPage.body),
    title_fr: demoPage.titleFr,
    body_fr: JSON.stringify(demoPage.bodyFr),
    is_published: 1,
  };
  statements.push(insert("site_pages", { id: demoPage.id, ...page, created_at: now, field_mtimes: mtimes(page) }, "ON CONFLICT(id) DO NOTHING"));
  // The season is the demo's year, so the series reads "Demo Cup 2026" whenever it was seeded.
  const series = { name: demoSeries.name, year: new Date(now).getUTCFullYear(), is_public: 1, url: demoSeries.url, config: JSON.stringify(demoSeries.config) };
  const seriesOwners = { club_id: demoSeries.clubId, site_id: demoSeries.siteId };
  statements.push(
    insert(
      "points_series",
      { id: demoSeries.id, ...seriesOwners, ...series, created_at: now, field_mtimes: mtimes({ ...seriesOwners, ...series }) },
      "ON CONFLICT(id) DO NOTHING",
    ),
  );
  // The ranking scheme's season is the demo's year too; its list fills in from the two races' results.
  const season = String(new Date(now).getUTCFullYear());
  const scheme = {
    name: demoRankingScheme.name,
    sport: demoRankingScheme.sport,
    season,
    method: "fis_points",
    config: JSON.stringify({ method: "fis", max_penalty: demoRankingScheme.maxPenalty, seasons: [{ label: season, races: demoRankingScheme.races }] }),
  };
  const schemeOwners = { club_id: demoRankingScheme.clubId, site_id: demoRankingScheme.siteId };
  statements.push(
    insert(
      "ranking_schemes",
      { id: demoRankingScheme.id, ...schemeOwners, ...scheme, created_at: now, field_mtimes: mtimes({ ...schemeOwners, ...scheme }) },
      "ON CONFLICT(id) DO NOTHING",
    ),
  );
  // The demo card takes the club's next number once, as issuing does (workers/services/passes.ts).
  const pass = demoPass(now);
  const unseeded = `NOT EXISTS (SELECT 1 FROM passes WHERE id = ${sqlValue(pass.id)})`;
  statements.push(
    `INSERT INTO pass_counters (club_id, last_number) VALUES (${sqlValue(pass.clubId)}, 0) ON CONFLICT DO NOTHING;`,
    `UPDATE pass_counters SET last_number = last_number + 1 WHERE club_id = ${sqlValue(pass.clubId)} AND ${unseeded};`,
    `INSERT INTO passes (id, created_at, field_mtimes, club_id, site_id, kind, holder_name, holder_email, season, number, valid_from, valid_until, source)
     SELECT ${[pass.id, now, "{}", pass.clubId, pass.siteId, pass.kind, pass.holderName, pass.holderEmail, pass.season].map(sqlValue).join(", ")},
            printf('%06d', last_number), ${sqlValue(pass.validFrom)}, ${sqlValue(pass.validUntil)}, 'seed:demo-card'
     FROM pass_counters WHERE club_id = ${sqlValue(pass.clubId)} AND ${unseeded};`,
  );
  const app = {
    name: demoApp.name,
    description: demoApp.description,
    scopes: demoApp.scopes,
    redirect_uris: JSON.stringify(demoApp.redirectUris),
    is_system: 0,
    is_public: 1,
    club_id: demoApp.clubId,
  };
  // A database seeded before the app had a club gets it; a club set since is kept.
  statements.push(
    insert(
      "api_applications",
      { id: demoApp.id, ...app, created_at: now, field_mtimes: mtimes(app) },
      "ON CONFLICT(id) DO UPDATE SET club_id = excluded.club_id WHERE api_applications.club_id IS NULL",
    ),
  );
  statements.push(...depotStatements(mtimes, now));
  statements.push(...divisionStatements(mtimes, now));
  return statements.join("\n");
}

/** The demo depot, its catalogue and stock; a type whose key an administrator already used is left as it is. */
function depotStatements(mtimes: (row: Record<string, unknown>) => string, now: number): string[] {
  const depot = { name: demoDepot.name, country: demoDepot.country };
  const out = [insert("shipping_depots", { id: demoDepot.id, ...depot, created_at: now, field_mtimes: mtimes(depot) }, "ON CONFLICT DO NOTHING")];
  for (const type of demoDepot.types) {
    const fields = {
      key: type.key,
      name: type.name,
      is_tracked: type.isTracked ? 1 : 0,
      is_rentable: type.isRentable ? 1 : 0,
      included: JSON.stringify(type.included),
      auto_pack_key: type.autoPackKey,
      packing_instructions: type.packingInstructions,
      ordinal: type.ordinal,
    };
    out.push(insert("inventory_types", { id: type.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, "ON CONFLICT DO NOTHING"));
    if ("numbers" in type)
      type.numbers.forEach((number, i) => {
        const item = { depot_id: demoDepot.id, type_id: type.id, number };
        const id = `${type.id.slice(0, 24)}${type.id.slice(-2)}${String(i).padStart(10, "0")}`;
        out.push(insert("inventory_items", { id, ...item, created_at: now, field_mtimes: mtimes(item) }, "ON CONFLICT DO NOTHING"));
      });
    if ("onHand" in type) out.push(insert("depot_stock", { depot_id: demoDepot.id, type_id: type.id, on_hand: type.onHand }, "ON CONFLICT DO NOTHING"));
  }
  return out;
}

/**
 * The demo division, its season, members and their member cards (issue 25). Each card takes the club's next
 * number once, as issuing does (workers/services/passes.ts), and is sourced from its membership, so a correction
 * of the person updates it (decision 0066). A second seed adds nothing; no mail is queued for seeded cards.
 */
function divisionStatements(mtimes: (row: Record<string, unknown>) => string, now: number): string[] {
  const division = demoDivision(now);
  const owners = { club_id: division.clubId, site_id: division.siteId };
  const fields = { ...owners, name: division.name, country: "CA", sport: "Cross Country Skiing", programs_list: JSON.stringify(division.programs) };
  const out = [insert("divisions", { id: division.id, ...fields, created_at: now, field_mtimes: mtimes(fields) }, "ON CONFLICT DO NOTHING")];
  const { season } = division;
  const seasonRow = { ...owners, division_id: division.id, name: season.name, starts_at: season.startsAt, ends_at: season.endsAt };
  out.push(insert("division_seasons", { id: season.id, ...seasonRow, created_at: now, field_mtimes: mtimes(seasonRow) }, "ON CONFLICT DO NOTHING"));
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  out.push(`INSERT INTO pass_counters (club_id, last_number) VALUES (${sqlValue(division.clubId)}, 0) ON CONFLICT DO NOTHING;`);
  for (const p of division.people) {
    const names = { firstName: p.firstName, lastName: p.lastName, birthDate: p.birthDate, email: p.email };
    const person = {
      ...owners,
      division_id: division.id,
      member_number: p.memberNumber,
      person_key: personKey(names),
      first_name: p.firstName,
      last_name: p.lastName,
      birth_date: p.birthDate,
      email: p.email,
      lang: p.lang,
    };
    out.push(insert("division_people", { id: p.id, ...person, created_at: now, field_mtimes: mtimes(person) }, "ON CONFLICT DO NOTHING"));
    const member = {
      ...owners,
      division_id: division.id,
      person_id: p.id,
      season_id: season.id,
      member_class: "racing",
      attributes: "{}",
      programs: JSON.stringify(p.memberNumber === 2 ? ["Juniors"] : ["Masters"]),
      expires_at: season.endsAt,
    };
    out.push(insert("division_members", { id: p.memberId, ...member, created_at: now, field_mtimes: mtimes(member) }, "ON CONFLICT DO NOTHING"));
    // The card's membership source makes it the membership's own card; it takes a number only the first time.
    const source = memberCardSource(p.memberId);
    const unseeded = `NOT EXISTS (SELECT 1 FROM passes WHERE club_id = ${sqlValue(division.clubId)} AND source = ${sqlValue(source)})`;
    const card = [p.cardId, now, "{}", division.clubId, division.siteId, "member_card", `${p.firstName} ${p.lastName}`, p.email, season.name];
    out.push(
      `UPDATE pass_counters SET last_number = last_number + 1 WHERE club_id = ${sqlValue(division.clubId)} AND ${unseeded};`,
      `INSERT INTO passes (id, created_at, field_mtimes, club_id, site_id, kind, holder_name, holder_email, season, number, valid_from, valid_until, source, lang)
       SELECT ${card.map(sqlValue).join(", ")}, printf('%06d', last_number), ${sqlValue(day(season.startsAt))}, ${sqlValue(day(season.endsAt - 86_400_000))}, ${sqlValue(source)}, ${sqlValue(p.lang)}
       FROM pass_counters WHERE club_id = ${sqlValue(division.clubId)} AND ${unseeded};`,
    );
  }
  return out;
}

export async function seedLocal(persistTo?: string): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "startline-seed-"));
  const file = path.join(dir, "seed.sql");
  try {
    writeFileSync(file, await buildSeedSql(Date.now()));
    const args = ["d1", "execute", "DB", "--local", "--file", file];
    if (persistTo) args.push("--persist-to", persistTo);
    execFileSync(wranglerBin, args, { cwd: root, env: wranglerEnv({ CI: "true" }), stdio: ["ignore", "ignore", "inherit"] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await seedLocal(process.argv[2]);
  console.log("Demo data is in place.");
}
