// The demo tenants, people and races that `npm start` creates. Fixed ids make the seed idempotent.
export const demoSites = [
  {
    id: "6d1f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c01",
    hostname: "demo.localhost",
    config: {
      name: "Nordic Demo Club",
      tagline: "Cross-country skiing in the hills since 1987",
      colours: { primary: "#1e3a8a", accent: "#e11d48" },
      font: "humanist",
      french: true,
      menu: [
        { label: "Events", labelFr: "Événements", href: "/events" },
        { label: "Demo Cup", labelFr: "Coupe démo", href: "/series" },
        { label: "About the club", labelFr: "Le club", href: "/about" },
      ],
      footer: {
        text: "Nordic Demo Club · 12 Trail Road, Hilltown",
        textFr: "Club nordique démo · 12 chemin des Pistes, Hilltown",
        links: [
          { label: "About the club", labelFr: "Le club", href: "/about" },
          { label: "Contact", href: "https://example.org/contact" },
        ],
      },
    },
  },
  {
    id: "6d1f3c2a-0b7e-4c5d-9a41-1e2f3a4b5c02",
    hostname: "trail.localhost",
    config: {
      name: "Riverside Trail Runners",
      tagline: "Trail running for everyone",
      colours: { primary: "#166534", accent: "#ca8a04" },
    },
  },
] as const;

export const demoClubs = [
  { id: "7a2e4d3b-1c8f-4d6e-8b52-2f3a4b5c6d01", name: "Nordic Demo Club", sport: "Cross Country Skiing", country: "CA", siteId: demoSites[0].id },
  // Takes cards through its own Stripe account (a test account id); with no Stripe keys the platform offers cash and cheques.
  {
    id: "7a2e4d3b-1c8f-4d6e-8b52-2f3a4b5c6d02",
    name: "Riverside Trail Runners",
    sport: "Running",
    country: "CA",
    siteId: demoSites[1].id,
    stripeAccountId: "acct_demo_riverside",
  },
] as const;

export const demoUsers = [
  {
    id: "8b3f5e4c-2d9a-4e7f-9c63-3a4b5c6d7e01",
    email: "admin@startline.local",
    name: "Sam Superadmin",
    password: "startline-admin-demo",
    role: { id: "9c4a6f5d-3e0b-4f8a-8d74-4b5c6d7e8f01", type: "system_admin", clubId: null },
    extraRoles: [],
    description: "super-admin",
  },
  {
    id: "8b3f5e4c-2d9a-4e7f-9c63-3a4b5c6d7e02",
    email: "coach@nordic-demo.local",
    name: "Casey Clubadmin",
    password: "nordic-club-demo",
    role: { id: "9c4a6f5d-3e0b-4f8a-8d74-4b5c6d7e8f02", type: "org_admin", clubId: demoClubs[0].id },
    extraRoles: [{ id: "9c4a6f5d-3e0b-4f8a-8d74-4b5c6d7e8f03", type: "race_admin", clubId: demoClubs[0].id, scope: "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a01" }],
    description: "club admin of Nordic Demo Club",
  },
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Demo races start a set number of days after the seed runs, at 10:00 UTC, so they stay upcoming. */
export function demoRaces(now: number) {
  const day = (offset: number) => Math.floor(now / DAY_MS) * DAY_MS + offset * DAY_MS + 15 * 60 * 60 * 1000;
  return [
    {
      id: "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a01",
      clubId: demoClubs[0].id,
      siteId: demoSites[0].id,
      name: "Demo Classic 10 km",
      sport: "Cross Country Skiing",
      startTime: day(14),
      timezone: "America/Toronto",
      location: "Gatineau Park",
    },
    {
      id: "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a02",
      clubId: demoClubs[1].id,
      siteId: demoSites[1].id,
      name: "Riverside 25 km Trail Race",
      sport: "Running",
      startTime: day(21),
      timezone: "America/Toronto",
      location: "Riverside Park",
    },
    {
      // The demo sprint's qualifier has been raced: it started two hours before the seed ran.
      id: "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a03",
      clubId: demoClubs[0].id,
      siteId: demoSites[0].id,
      name: "Demo Sprint (heats)",
      keepDate: true,
      sport: "Cross Country Skiing",
      startTime: Math.floor(now / 60_000) * 60_000 - 2 * 60 * 60 * 1000,
      timezone: "America/Toronto",
      location: "Gatineau Park",
    },
  ];
}

/**
 * The Nordic club's public points series (issue 27): the sprint's qualifier (raced) and the classic (after
 * `npm run simulate`), scored on the World Cup table, shown at http://demo.localhost:8787/series.
 */
export const demoSeries = {
  id: "d9e0f1a2-7c4d-4e6f-8a61-8c9d0e1f2a01",
  clubId: demoClubs[0].id,
  siteId: demoSites[0].id,
  name: "Demo Cup",
  url: "https://demo.localhost/series/demo-cup",
  config: { races: [{ race: "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a03" }, { race: "a5b6c7d8-4f1c-4a9b-8e85-5c6d7e8f9a01", scale: 1.5 }], ties: "share" },
} as const;

/**
 * The Nordic club's FIS ranking list (issue 27, decision 0054) over the Demo Cup's two races, for the demo's
 * year: its Organization Admin opens it at /club/{club}/rankings/{id} and seeds a start group by it.
 */
export const demoRankingScheme = {
  id: "d9e0f1a2-7c4d-4e6f-8a61-8c9d0e1f2a02",
  clubId: demoClubs[0].id,
  siteId: demoSites[0].id,
  name: "Nordic Demo ranking",
  sport: "Cross Country Skiing",
  // A field of unranked racers would otherwise get FIS's full penalty (about 1000): a club list starts lower.
  maxPenalty: 100,
  races: demoSeries.config.races.map((r) => ({ race: r.race })),
} as const;

/**
 * A member card of Nordic Demo Club for this calendar year (issue 27): its Organization Admin sees it at
 * /club/{club}/passes, opens the card from the holder's name and checks it in at /club/{club}/checkin.
 */
export function demoPass(now: number) {
  const year = new Date(now).getUTCFullYear();
  return {
    id: "e1f2a3b4-8d5e-4f70-9b72-9d0e1f2a3b01",
    clubId: demoClubs[0].id,
    siteId: demoSites[0].id,
    kind: "member_card",
    holderName: "Robin Member",
    holderEmail: "robin.member@nordic-demo.local",
    season: String(year),
    validFrom: `${year}-01-01`,
    validUntil: `${year}-12-31`,
  } as const;
}

/**
 * Nordic Demo Club's membership system (issue 25): a division with this year's season and three members, each
 * with a membership and its member card, so correcting a member's name or address (decision 0066) can be tried
 * on /org/{division}/home and seen on the card and in the captured mail.
 */
export function demoDivision(now: number) {
  const year = new Date(now).getUTCFullYear();
  const owners = { clubId: demoClubs[0].id, siteId: demoSites[0].id };
  const person = (n: number, firstName: string, lastName: string, birthDate: string, email: string, lang: "en" | "fr") => ({
    id: `f2a3b4c5-9e6f-4a81-8c93-0e1f2a3b4c${String(n).padStart(2, "0")}`,
    memberId: `f2a3b4c5-9e6f-4a81-8c93-0e1f2a3b4d${String(n).padStart(2, "0")}`,
    cardId: `f2a3b4c5-9e6f-4a81-8c93-0e1f2a3b4e${String(n).padStart(2, "0")}`,
    memberNumber: n,
    firstName,
    lastName,
    birthDate,
    email,
    lang,
  });
  return {
    id: "f2a3b4c5-9e6f-4a81-8c93-0e1f2a3b4a01",
    ...owners,
    name: "Nordic Demo Members",
    programs: ["Masters", "Juniors"],
    season: { id: "f2a3b4c5-9e6f-4a81-8c93-0e1f2a3b4b01", name: String(year), startsAt: Date.UTC(year, 0, 1), endsAt: Date.UTC(year + 1, 0, 1) },
    people: [
      person(1, "Alex", "Lindqvist", "1988-02-14", "alex.lindqvist@nordic-demo.local", "en"),
      person(2, "Mira", "Tremblay", "2009-11-03", "mira.tremblay@nordic-demo.local", "fr"),
      person(3, "Jonas", "Berg", "1975-07-21", "jonas.berg@nordic-demo.local", "en"),
    ],
  };
}

/**
 * A third-party app registered on the main host, for trying the OAuth flow (sdk/examples). It belongs to the
 * Nordic club so the demo club admin can manage it at /manage/apps.
 */
export const demoApp = {
  id: "b7c8d9e0-5a2b-4c3d-8e4f-6a7b8c9d0e01",
  clubId: demoClubs[0].id,
  name: "Demo Results App",
  description: "An example third-party app that reads your registrations and races.",
  scopes: "registrations races",
  redirectUris: ["http://127.0.0.1:8790/callback"],
} as const;

interface DemoElementExtra {
  isMandatory?: boolean;
  isTaxable?: boolean;
  prices?: { price_1: number };
  optionsList?: Record<string, unknown>[];
  config?: Record<string, unknown>;
  condition?: { element: string; operator: string; value: string };
  /** Shown only to staff filling the form in with ?admin=1. */
  isAdminOnly?: boolean;
  /** Shown only at a registration desk (?kiosk=1). */
  isKioskMode?: boolean;
}

/** A demo registration form of the Nordic club, open from the seed day for 60 days. */
/** Makes a form's demo elements with fixed ids (`<prefix><10 + n>`), so a re-seed finds them again. */
function demoElementMaker(idPrefix: string) {
  return (n: number, type: string, caption: string, extra: DemoElementExtra = {}) => ({
    id: `${idPrefix}${String(10 + n).padStart(2, "0")}`,
    type,
    caption,
    ordinal: n,
    ...extra,
  });
}

export function demoRegistrations(now: number) {
  const registrationId = "c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e1f01";
  const element = demoElementMaker("c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e1f");
  return [
    {
      id: registrationId,
      clubId: demoClubs[0].id,
      siteId: demoSites[0].id,
      name: "Winter Loppet 2027",
      sport: "Cross Country Skiing",
      isApproved: true,
      openTime: now - DAY_MS,
      closeTime: now + 60 * DAY_MS,
      gstRate: 13,
      // Prices rise after two weeks and again after six.
      raisePrice1Time: now + 14 * DAY_MS,
      raisePrice2Time: now + 42 * DAY_MS,
      elements: [
        element(1, "text", "First name", { isMandatory: true }),
        element(2, "text", "Last name", { isMandatory: true }),
        element(3, "email", "Email", { isMandatory: true }),
        element(4, "dob", "Date of birth", { isMandatory: true }),
        element(5, "gender", "Gender"),
        element(6, "option", "Distance", {
          isMandatory: true,
          isTaxable: true,
          optionsList: [
            { id: "10k", display: "10 km classic", price_1: 4500, price_2: 5500, price_3: 6500 },
            { id: "25k", display: "25 km classic", price_1: 6000, price_2: 7000, price_3: 8000 },
          ],
        }),
        element(7, "phone", "Cell Phone"),
        element(8, "province", "Province"),
        element(9, "checkbox", "Loppet toque", { isTaxable: true, prices: { price_1: 2000 } }),
        element(10, "option", "Toque colour", {
          condition: { element: element(9, "", "").id, operator: "notempty", value: "" },
          optionsList: [
            { id: "red", display: "Red" },
            { id: "blue", display: "Blue" },
          ],
        }),
        element(11, "donation", "Donation to the trail fund"),
        element(12, "waiver", "Waiver", { isMandatory: true, config: { waiver_text: "I take part at my own risk and follow the organisers' instructions." } }),
        element(13, "discount", "Discount code", {
          config: {
            discounts_list: [
              { code: "CLUB10", type: "deduct_percent", amt: 10, elts_list: [element(6, "", "").id], description: "Club members: 10% off the distance" },
              { code: "VOLUNTEER", type: "pay_amount", amt: 2000, elts_list: [], description: "Volunteers pay 20.00", qty: 25 },
            ],
          },
        }),
        // What ?admin=1 and ?kiosk=1 add for staff (README: the organiser's tour).
        element(14, "text", "Staff note", { isAdminOnly: true }),
        element(15, "checkbox", "Paid at the desk", { isKioskMode: true }),
      ],
    },
    riversideRegistration(now),
  ];
}

/** The Riverside club's trail race form: paid by card when Stripe is set up (the local fake in browser tests). */
function riversideRegistration(now: number) {
  const element = demoElementMaker("c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e2f");
  return {
    id: "c8d9e0f1-6b3c-4d5e-9f50-7b8c9d0e2f01",
    clubId: demoClubs[1].id,
    siteId: demoSites[1].id,
    name: "Riverside Trail Race 2027",
    sport: "Running",
    // Bilingual: ?lang=fr shows the form, its prices, the receipt and the mail in French.
    isBilingual: true,
    // Registrants may cancel from the receipt until the form closes: 90% back, less 5.00.
    cancelRefundPercent: 90,
    cancelFee: 500,
    // The kids' race has 2 places: a third registrant can join the waitlist, offered a freed place for 24 hours.
    waitlistOfferHours: 24,
    // From the receipt, a registrant may transfer an entry to someone else for 10.00, paid by card.
    transferFee: 1000,
    isApproved: true,
    openTime: now - DAY_MS,
    closeTime: now + 60 * DAY_MS,
    gstRate: 13,
    raisePrice1Time: now + 30 * DAY_MS,
    raisePrice2Time: now + 50 * DAY_MS,
    elements: [
      element(1, "text", "[en]First name[fr]Prénom", { isMandatory: true }),
      element(2, "text", "[en]Last name[fr]Nom de famille", { isMandatory: true }),
      element(3, "email", "[en]Email[fr]Courriel", { isMandatory: true }),
      element(4, "option", "Distance", {
        isMandatory: true,
        isTaxable: true,
        optionsList: [
          { id: "12k", display: "12 km", price_1: 4000, price_2: 4500, price_3: 5000 },
          { id: "25k", display: "25 km", price_1: 6000, price_2: 6500, price_3: 7000 },
          { id: "3k", display: "Kids' 3 km", display_fr: "3 km jeunesse", limit: 2, price_1: 1500, price_2: 1500, price_3: 1500 },
        ],
      }),
    ],
  };
}

/** An ISO date (YYYY-MM-DD) `offset` days from the seed day, in UTC. */
const isoDay = (now: number, offset: number) => new Date(Math.floor(now / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo site's event pages (decision 0046): one upcoming, on the demo race's day and the next, linking that
 * race and the Winter Loppet form, and one past, so /events shows both lists.
 */
export function demoEvents(now: number) {
  const race = demoRaces(now)[0]!;
  const raceDay = isoDay(race.startTime, 0);
  return [
    {
      id: "d1e2f3a4-7c4d-4e5f-8a61-8c9d0e1f2a01",
      clubId: demoClubs[0].id,
      siteId: demoSites[0].id,
      name: "Winter Loppet",
      title: "Winter Loppet Weekend",
      pageUrl: "winter-loppet",
      year: Number(raceDay.slice(0, 4)),
      startDate: raceDay,
      endDate: isoDay(race.startTime, 1),
      sport: "Cross Country Skiing",
      location: "Gatineau Park",
      description:
        "Two days of classic racing in Gatineau Park.\n\nSaturday is the Demo Classic 10 km, three laps of the stadium loop; Sunday is a relaxed tour for families. Register below, then follow the results live on race day.",
      raceIds: [race.id],
      registrationIds: [demoRegistrations(now)[0]!.id],
      movesForward: true,
    },
    {
      id: "d1e2f3a4-7c4d-4e5f-8a61-8c9d0e1f2a02",
      clubId: demoClubs[0].id,
      siteId: demoSites[0].id,
      name: "Autumn Time Trial",
      title: "Autumn Time Trial",
      pageUrl: "autumn-time-trial",
      year: Number(isoDay(now, -60).slice(0, 4)),
      startDate: isoDay(now, -60),
      endDate: isoDay(now, -60),
      sport: "Roller Skiing",
      location: "Gatineau Park",
      description: "The club's roller-ski time trial that opened the season.",
      raceIds: [] as string[],
      registrationIds: [] as string[],
      movesForward: false,
    },
  ];
}

/** A demo shipping depot (issue 27): timing mats that bring their cables, decoders, bib printers, and stock of each. */
export const demoDepot = {
  id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e01",
  name: "Demo Depot (Ottawa)",
  country: "CA",
  types: [
    {
      id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e11",
      key: "chip-mat",
      name: "Chip timing mat",
      isTracked: true,
      isRentable: true,
      included: [{ key: "mat-cable", quantity: 2 }],
      autoPackKey: "mats",
      packingInstructions: "Roll the mats, never fold them; two cables per mat go in the same crate.",
      ordinal: 10,
      numbers: ["MAT-001", "MAT-002", "MAT-003", "MAT-004", "MAT-005", "MAT-006"],
    },
    {
      id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e12",
      key: "mat-cable",
      name: "Mat cable",
      isTracked: false,
      isRentable: true,
      included: [],
      autoPackKey: "mats",
      packingInstructions: null,
      ordinal: 11,
      onHand: 30,
    },
    {
      id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e13",
      key: "decoder",
      name: "Decoder",
      isTracked: true,
      isRentable: true,
      included: ["decoder-psu"],
      autoPackKey: "decoders",
      packingInstructions: "In its hard case with the power supply.",
      ordinal: 20,
      numbers: ["DEC-01", "DEC-02", "DEC-03"],
    },
    {
      id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e14",
      key: "decoder-psu",
      name: "Decoder power supply",
      isTracked: false,
      isRentable: true,
      included: [],
      autoPackKey: "decoders",
      packingInstructions: null,
      ordinal: 21,
      onHand: 5,
    },
    {
      id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e15",
      key: "bib-printer",
      name: "Bib printer",
      isTracked: true,
      isRentable: true,
      included: [],
      autoPackKey: null,
      packingInstructions: "Lock the print head first.",
      ordinal: 30,
      numbers: ["BP-1", "BP-2"],
    },
    {
      id: "d3e4f5a6-7b8c-4d9e-8f01-2a3b4c5d6e16",
      key: "bib-paper",
      name: "Bib paper roll",
      isTracked: false,
      isRentable: false,
      included: [],
      autoPackKey: null,
      packingInstructions: null,
      ordinal: 31,
      onHand: 40,
    },
  ],
} as const;

/** The demo site's own page (issue 26), published, in English and French. */
export const demoPage = {
  id: "8c3f5e4d-2d9a-4e7f-9c63-3a4b5c6d7e01",
  siteId: demoSites[0].id,
  clubId: "7a2e4d3b-1c8f-4d6e-8b52-2f3a4b5c6d01",
  path: "/about",
  title: "About the club",
  titleFr: "Le club",
  body: [
    { type: "heading", text: "Skiing together since 1987" },
    {
      type: "text",
      text: "We groom 40 km of trails in the hills above Hilltown and race every winter weekend.\n\nSee our [upcoming events](/events) or the [Demo Cup standings](/series).",
    },
    { type: "button", text: "Register for a race", url: "/events" },
  ],
  bodyFr: [
    { type: "heading", text: "Du ski ensemble depuis 1987" },
    {
      type: "text",
      text: "Nous damons 40 km de pistes dans les collines de Hilltown et courons chaque fin de semaine d'hiver.\n\nVoyez nos [prochains événements](/events).",
    },
    { type: "button", text: "S'inscrire à une course", url: "/events" },
  ],
} as const;
