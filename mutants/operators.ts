/**
 * The catalogue that nobody has to imagine: mutation operators applied to every site where they fit.
 * A site is a documented field of an answer, read from the schemas (the one source of the fields);
 * an operator is a way real implementations get such a field wrong: a field left out, answered null,
 * of another JSON type, under another spelling of its name, cut by a character where its text has a
 * pattern, a timestamp without its offset, a value read again that changes a little later, or an
 * identifier repeated from another resource. A generated mutant must fail the first clause its
 * site's schema names (x-clauses), for a changed value the clause a change breaks (changeClause),
 * for a repeated one the clause that owns its being distinct (x-distinct), and may disturb the
 * site's other clauses, those of the objects that hold it and those of the fields it holds. The
 * operators' benign twin is what the reference leaves free: a field beside the documented ones, of
 * any name and value. Two more families follow the fields': notification destinations × the ways a
 * notification goes astray, and operations × the framings of their requests.
 */
import type { ClauseId } from '../schemas/generated/clause-ids.ts';
import { changeClause, changedByConfirmation } from '../src/checks/audit.ts';
import { loadSchema, type JsonSchema, type SchemaFile } from '../src/core/schemas.ts';
import { framingSites } from '../src/generators/framings.ts';
import { answerWhen, atPath, editBody, editNotifications, eachObject, envelopes, first, withQueryRewritten, type Json } from './edits.ts';
import type { Delivery, ProxyContext, Route } from './proxy.ts';
import { collidesAtOnce, creations, oneAtATime, racingWrites, sharedStates, type SharedState } from './at-once.ts';
import { catalogueEventMs, type BenignVariant, type Mutant } from './kinds.ts';

export interface Site {
  /** The answer's object and the field's path in it: checkout.stateDetails.state. */
  name: string;
  /** Where the field is in the answer's body: keys, `[]` for every element of an array. */
  path: string[];
  routes: Route[];
  required: boolean;
  /** The pattern its text must match, if the schemas give one. */
  pattern: string | null;
  /** An ISO 8601 date and time with its UTC offset. */
  timestamp: boolean;
  /** A string, number or boolean, not an object or array. */
  scalar: boolean;
  /** The field's clauses; then those of the objects that hold it, and of the fields it holds. */
  clauses: ClauseId[];
  /** The clause that owns the field's being distinct over the resources that carry it (x-distinct), if any. */
  distinct: string | null;
  relatedClauses: string[];
}

/** The answers whose fields the schemas document, and where in the body each schema's object lies. */
const answered: Array<{ object: string; schema: SchemaFile; routes: Route[]; at: string[] }> = [
  { object: 'checkout', schema: 'checkout.schema.json', routes: ['createCheckout'], at: ['data'] },
  { object: 'payment', schema: 'payment.schema.json', routes: ['getPayment'], at: ['data'] },
  { object: 'stored-method', schema: 'stored-payment-method.schema.json', routes: ['listMethods'], at: ['data', '[]'] },
  { object: 'envelope', schema: 'envelope.schema.json', routes: envelopes, at: [] },
];

/** Every site of the schemas: each field with clauses of its own, outside the envelope's data (its operations' own fields are sites). */
export function sitesOf(): Site[] {
  const sites = new Map<string, Site>();
  for (const { object, schema: file, routes, at } of answered) {
    const root = loadSchema(file);
    // A property that refers to a definition is the definition with the property's own keywords (its clauses) on top.
    const resolve = (schema: JsonSchema): JsonSchema => {
      const match = typeof schema.$ref === 'string' ? /^([^#]*)#\/\$defs\/(.+)$/.exec(schema.$ref) : null;
      if (!match) return schema;
      const definitions = (match[1] ? loadSchema(match[1] as SchemaFile) : root).$defs as Record<string, JsonSchema>;
      return { ...definitions[match[2]], ...schema };
    };
    const walk = (schema: JsonSchema, path: string[], required: boolean, relatedClauses: string[]) => {
      const resolved = resolve(schema);
      const clauses = (resolved['x-clauses'] as ClauseId[] | undefined) ?? [];
      if (path.length > at.length && clauses.length > 0 && path.at(-1) !== 'data') {
        const name = [object, ...path.slice(at.length).filter((key) => key !== '[]')].join('.');
        const known = sites.get(name);
        sites.set(name, {
          name,
          path,
          routes,
          required,
          pattern: typeof resolved.pattern === 'string' ? resolved.pattern : null,
          timestamp: resolved.format === 'date-time',
          scalar: resolved.type !== 'object' && resolved.type !== 'array' && !resolved.properties,
          clauses,
          distinct: typeof resolved['x-distinct'] === 'string' ? resolved['x-distinct'] : null,
          relatedClauses: [...new Set([...(known?.relatedClauses ?? []), ...relatedClauses])],
        });
      }
      const holding = [...relatedClauses, ...clauses];
      const requiredHere = new Set((resolved.required as string[] | undefined) ?? []);
      for (const [name, child] of Object.entries((resolved.properties as Record<string, JsonSchema> | undefined) ?? {}))
        walk(child, [...path, name], requiredHere.has(name), holding);
      if (resolved.items) walk(resolved.items as JsonSchema, [...path, '[]'], true, holding);
      for (const variant of (resolved.oneOf as JsonSchema[] | undefined) ?? []) walk(variant, path, required, relatedClauses);
    };
    walk(root, at, true, []);
  }
  // A field's absence takes the fields it holds with it: an object site may disturb their clauses too.
  return [...sites.values()].map((site) => ({
    ...site,
    relatedClauses: [
      ...new Set([...site.relatedClauses, ...[...sites.values()].filter((inner) => inner.name.startsWith(`${site.name}.`)).flatMap((inner) => inner.clauses)]),
    ],
  }));
}

/** Another spelling of a name, as another convention writes it: camelCase in snake_case, a single word capitalised. */
const respelled = (name: string) =>
  /[A-Z]/.test(name) ? name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`) : `${name[0].toUpperCase()}${name.slice(1)}`;

/** The value as another JSON type holds it: a number's digits as text, text as a number where it is one (else in an array), an object or a scalar in an array, an array as its first element. */
function retyped(value: Json): Json {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : [value];
  if (Array.isArray(value)) return value[0] ?? null;
  return [value];
}

interface Operator {
  name: string;
  /** Public reports of the fault in real services, where the operator was taken from one. */
  reported?: string[];
  /** What the mutant's description says happens to the field. */
  says: string;
  fits: (site: Site) => boolean;
  /** Changes the field `name` of `holder`; `answer` is what the operator may keep across the fields of one answer, and across answers. */
  edit: (holder: Json, name: string, answer: { proxy: ProxyContext; site: Site; firstInAnswer: { value?: Json } }) => void;
  /** Only in answers about a resource first answered this long ago: what was right when first read is wrong later. */
  laterMs?: number;
  /** The clause of its site it breaks (else the site's first). */
  breaks?: (site: Site) => string;
}

/** The value a little changed: a number one more, a boolean the other, text a character short (or one longer where empty). */
function changed(value: Json): Json {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return value === '' ? 'x' : value.slice(0, -1);
  return null;
}

/** The resources read again (a payment, a customer's list): which one an answer is about. */
const readAgain: Partial<Record<Route, true>> = { getPayment: true, listMethods: true };

export const operators: Operator[] = [
  { name: 'absent', says: 'is left out', fits: (site) => site.required, edit: (holder, name) => delete holder[name] },
  { name: 'null', says: 'is null', fits: () => true, edit: (holder, name) => (holder[name] = null) },
  {
    name: 'retyped',
    reported: ['https://github.com/apache/trafficcontrol/issues/2483', 'https://github.com/archivematica/Issues/issues/1094'],
    says: 'has another JSON type (text for a number, a number for digits, an array around a value)',
    fits: () => true,
    edit: (holder, name) => (holder[name] = retyped(holder[name])),
  },
  {
    name: 'trimmed',
    says: 'loses its last character (a digit of a reference or a card, the last of an offset)',
    fits: (site) => site.pattern !== null,
    edit: (holder, name) => typeof holder[name] === 'string' && (holder[name] = holder[name].slice(0, -1)),
  },
  {
    name: 'offset-dropped',
    reported: ['https://github.com/teng-lin/notebooklm-py/issues/1519', 'https://github.com/traceroot-ai/traceroot/issues/1054'],
    says: 'is written without its UTC offset, as a local time is',
    fits: (site) => site.timestamp,
    edit: (holder, name) => typeof holder[name] === 'string' && (holder[name] = holder[name].replace(/(Z|[+-]\d{2}(:?\d{2})?)$/i, '')),
  },
  {
    name: 'decays',
    says: 'changes a little once the resource was first answered a second before (a cache that loses precision, a record rewritten)',
    // An identifier that changes is another resource, of the identity family; what a confirmation changes may change.
    fits: (site) =>
      site.scalar &&
      site.routes.every((route) => readAgain[route]) &&
      !/^(id|uuid)$/.test(site.path.at(-1)!) &&
      !(site.routes.includes('getPayment') && changedByConfirmation.has(site.path[1])),
    edit: (holder, name) => (holder[name] = changed(holder[name])),
    laterMs: 1_000,
    breaks: (site) => changeClause(site.clauses),
  },
  {
    name: 'repeated',
    reported: ['https://github.com/AbsaOSS/enceladus/issues/694', 'https://github.com/zouharvi/last-translation-benchmark/issues/119'],
    says: "repeats another resource's: in a list, the first element's; elsewhere, the first answer's (an id taken from a counter that was never moved on)",
    fits: (site) => site.distinct !== null,
    edit: (holder, name, { proxy, site, firstInAnswer }) => {
      if (!site.path.includes('[]')) holder[name] = first(proxy, `repeated: ${site.name}`, holder[name]);
      else if ('value' in firstInAnswer) holder[name] = firstInAnswer.value;
      else firstInAnswer.value = holder[name];
    },
    breaks: (site) => site.distinct!,
  },
  {
    name: 'respelled',
    reported: ['https://github.com/googleapis/python-genai/issues/1514', 'https://github.com/linuxfoundation/crowd.dev/pull/4258'],
    says: 'is spelled another way (snake_case, a capital)',
    fits: (site) => site.path.at(-1) !== '[]',
    edit: (holder, name) => {
      holder[respelled(name)] = holder[name];
      delete holder[name];
    },
  },
];

/** Whether the resource was first answered at least ms ago (the first answer about it is remembered now). */
function firstAnsweredBefore(proxy: ProxyContext, resource: string, ms: number): boolean {
  const key = `first answered: ${resource}`;
  if (!proxy.memo.has(key)) proxy.memo.set(key, Date.now());
  return Date.now() - (proxy.memo.get(key) as number) >= ms;
}

const routeNames = (site: Site) => (site.routes === envelopes ? 'every answer' : site.routes.join(', '));

/** Where a description names the public reports its fault was taken from. */
const reportedIn = (reports: string[] | undefined) => (reports ? ` Reported of real services: ${reports.join(', ')}.` : '');

/** Every operator at every site where it fits: mutants named `<site>-<operator>`. */
const sites = sitesOf();

export const fieldMutants: Mutant[] = sites.flatMap((site) =>
  operators
    .filter((operator) => operator.fits(site))
    .map((operator) => ({ operator, clause: operator.breaks?.(site) ?? site.clauses[0] }))
    .map(({ operator, clause }) => ({
      name: `${site.name}-${operator.name}`,
      clause,
      disturbs: [...new Set([...site.clauses, ...site.relatedClauses])].filter((other) => other !== clause),
      description: `Generated (${operator.name} at ${site.name}): in the answers of ${routeNames(site)}, ${site.name} ${operator.says}.${reportedIn(operator.reported)}`,
      transform: editBody(site.routes, (body, proxy, request) => {
        if (operator.laterMs !== undefined && !firstAnsweredBefore(proxy, `${request.route} ${request.param}`, operator.laterMs)) return;
        const firstInAnswer = {};
        atPath(body, site.path, (holder, name) => operator.edit(holder, name, { proxy, site, firstInAnswer }));
      }),
    })),
);

/**
 * The delivery family: the sites are the destinations of section 6, a reference's callbackUrl
 * (EVT-1) and the merchant's webhook (EVT-2); the operators, the ways a notification goes astray.
 */
const destinations: Array<{ channel: Delivery['channel']; clause: 'EVT-1' | 'EVT-2'; otherAddress: (proxy: ProxyContext) => string | null }> = [
  { channel: 'callback', clause: 'EVT-1', otherAddress: (proxy) => proxy.webhookUrl },
  { channel: 'webhook', clause: 'EVT-2', otherAddress: (proxy) => proxy.lastCallbackUrl },
];

interface DeliveryOperator {
  name: string;
  /** Public reports of the fault in real services, where the operator was taken from one. */
  reported?: string[];
  says: string;
  edit: (delivery: Delivery, proxy: ProxyContext, destination: (typeof destinations)[number]) => Delivery[];
  /** The clause it breaks, where not its destination's. */
  breaks?: string;
}

export const deliveryOperators: DeliveryOperator[] = [
  { name: 'dropped', reported: ['https://github.com/lnbits/lnbits/issues/3114'], says: 'are never sent', edit: () => [] },
  {
    name: 'misaddressed',
    reported: ['https://github.com/KickEngineering/KickDevDocs/issues/294'],
    says: "go to the other destination (a callbackUrl's to the webhook, the webhook's to the last callbackUrl), or nowhere where there is none",
    edit: (delivery, proxy, destination) => {
      const to = destination.otherAddress(proxy);
      return to ? [{ ...delivery, to }] : [];
    },
  },
  {
    name: 'query-dropped',
    reported: ['https://github.com/getlago/lago/issues/123'],
    says: 'go to their address without its query',
    edit: (delivery) => [{ ...delivery, to: delivery.to.replace(/\?.*$/, '') }],
  },
  {
    name: 'query-decoded',
    reported: ['https://github.com/dlang/dub-registry/issues/614'],
    says: 'go to their address with its query percent-decoded (an encoded & or space is lost)',
    edit: (delivery) => [withQueryRewritten(delivery, decodeURIComponent)],
  },
  {
    name: 'intermittent',
    says: 'are sent one time in two: the first and every second after it are lost, as by a delivery queue that drops work under load',
    edit: (delivery, proxy) => {
      const asked = ((proxy.memo.get('deliveries asked') as number | undefined) ?? 0) + 1;
      proxy.memo.set('deliveries asked', asked);
      return asked % 2 === 1 ? [] : [delivery];
    },
  },
  {
    name: 'late',
    reported: ['https://github.com/lnbits/lnbits/issues/1643'],
    says: "arrive three times the run's eventMs after the confirmation, long after the merchant stopped waiting",
    edit: (delivery, proxy) => {
      setTimeout(() => void proxy.deliver(delivery).catch(() => undefined), 3 * catalogueEventMs).unref();
      return [];
    },
  },
  {
    name: 'unidentified',
    says: 'carry no id and no reference of any kind',
    breaks: 'EVT-3',
    edit: (delivery) => {
      eachObject(delivery.json as Json, (object) =>
        Object.keys(object)
          .filter((key) => /id$/i.test(key) || key === 'reference')
          .forEach((key) => delete object[key]),
      );
      return [delivery];
    },
  },
];

export const deliveryMutants: Mutant[] = destinations.flatMap((destination) =>
  deliveryOperators.map((operator) => ({
    name: `${destination.channel}-notification-${operator.name}`,
    clause: operator.breaks ?? destination.clause,
    disturbs: [],
    description: `Generated (${operator.name} at the ${destination.channel}): notifications meant for the ${destination.channel} ${operator.says}.${reportedIn(operator.reported)}`,
    transform: editNotifications((delivery, proxy) => (delivery.channel === destination.channel ? operator.edit(delivery, proxy, destination) : [delivery])),
  })),
);

/**
 * The framing family: the sites are the operations a valid request must be accepted by (CHK-1, REF-1,
 * REF-3, PML-1), the operator a framing of src/generators/framings.ts that a target refuses (415 for a
 * media type, else 400), as a parser or a gateway that knows only one way to write a request does.
 */
export const framingMutants: Mutant[] = framingSites.flatMap(({ clause, operation, framings }) =>
  framings.map((framing) => ({
    name: `${operation}-refuses-${framing.id}`,
    clause,
    // The checkout framed so is a row of 4.1: refused, it fails CHK-6 as well.
    disturbs: clause === 'CHK-1' ? ['CHK-6'] : [],
    description: `Generated (refuses ${framing.id} at ${operation}): a request framed so (${framing.name}) is refused.${reportedIn(framing.refusedIn)}`,
    transform: answerWhen((request) => request.route === operation && framing.seenIn(request), framing.headers?.['content-type'] ? 415 : 400),
  })),
);

/**
 * The at-once family: the sites are the fields that must be distinct (x-distinct) of an object an
 * operation creates (src/model/at-once.ts creates them in bursts); the operator, a creation that
 * races another and shows the other's value there, as a counter read by both before either moved it
 * on gives. Only requests at once meet it: its twin takes them one at a time.
 */
const createdSites = sites.flatMap((site) => {
  const creation = creations[site.name.split('.')[0]];
  return site.distinct !== null && creation && (creation.collides || !site.path.includes('[]')) ? [{ site, creation }] : [];
});

/** Public reports of numbers given twice to creations at once, in payment and shop services. */
const collisionsReported = [
  'https://github.com/spree/spree/issues/6719',
  'https://github.com/cezerin/cezerin/issues/487',
  'https://github.com/coopcycle/coopcycle-web/issues/476',
  'https://github.com/IBM-Cloud/jpetstore-kubernetes/issues/28',
];

export const atOnceFieldMutants: Mutant[] = createdSites.map(({ site, creation }) => ({
  name: `${site.name}-collides-at-once`,
  clause: site.distinct!,
  disturbs: [...new Set([...site.clauses, ...site.relatedClauses])].filter((other) => other !== site.distinct),
  description: `Generated (collides at once at ${site.name}): ${creation.racing} made while another is under way (${creation.route}) ${creation.collides?.shows(site.name) ?? `shows the other's ${site.name}, in its answer and in every later answer about it`}.${reportedIn(collisionsReported)}`,
  transform: creation.collides?.transform(site) ?? collidesAtOnce(site, creation),
}));

/**
 * The at-once family's writes: the sites are the states that writes of one kind change (a customer's
 * list, a payment's state); the operators, what a read-modify-write without a lock does to two at once.
 */
interface WriteOperator {
  name: string;
  reported: string[];
  says: (state: SharedState) => string;
  fits: (state: SharedState) => boolean;
  /** The effects undone, of the write and of those under way when it came. */
  undone: (own: string, underWay: string[]) => string[];
}

export const writeOperators: WriteOperator[] = [
  {
    name: 'lost-update',
    reported: [
      'https://github.com/open-mercato/open-mercato/issues/1414',
      'https://github.com/wcpos/woocommerce-pos/pull/1839',
      'https://github.com/pay-rails/pay/pull/1027',
    ],
    says: (state) => `writes what it read before the other's: the other's ${state.effect} is lost`,
    fits: (state) => state.ownEffects,
    undone: (_own, underWay) => underWay,
  },
  {
    name: 'reverted-at-once',
    reported: ['https://github.com/Adyen/adyen-magento2/issues/2726', 'https://github.com/duncanmcclean/statamic-cargo/pull/195'],
    says: (state) => `writes back the state it read before either: its ${state.effect} and the other's are undone, though both were answered as done`,
    fits: () => true,
    undone: (own, underWay) => (underWay.length > 0 ? [own, ...underWay] : []),
  },
];

export const atOnceWriteMutants: Mutant[] = sharedStates.flatMap((state) =>
  writeOperators
    .filter((operator) => operator.fits(state))
    .map((operator) => ({
      name: `${state.name}-${operator.name}`,
      clause: state.clause,
      disturbs: state.disturbs,
      description: `Generated (${operator.name} at ${state.name}): ${state.racing} (${state.route}) ${operator.says(state)}.${reportedIn(operator.reported)}`,
      transform: racingWrites(state, operator.undone),
    })),
);

export const generatedMutants: Mutant[] = [...fieldMutants, ...deliveryMutants, ...framingMutants, ...atOnceFieldMutants, ...atOnceWriteMutants];

/** How the report names the generated catalogue: its sites, operators and mutants. */
export const generatedCatalogue = `the ${generatedMutants.length} mutants generated from ${sites.length} answer fields × ${operators.length} operators (${operators.map(({ name }) => name).join(', ')}), ${destinations.length} notification destinations × ${deliveryOperators.length} operators (${deliveryOperators.map(({ name }) => name).join(', ')}), ${framingSites.length} operations × the framings of their requests, ${createdSites.length} fields that must be distinct × a creation at once that collides, and ${sharedStates.length} states written at once × ${writeOperators.length} operators (${writeOperators.map(({ name }) => name).join(', ')})`;

/** What the requests of each route race on, in the at-once family's creations and writes (a payment that stores a method is both). */
function oneRacePerRoute(): Map<Route, { raceKey: SharedState['raceKey']; racing: string }> {
  const races = new Map<Route, { raceKey: SharedState['raceKey']; racing: string }>();
  for (const { route, raceKey, racing } of [
    ...createdSites.map(({ creation }) => ({ ...creation, racing: `${creation.racing} made while another is under way` })),
    ...sharedStates,
  ])
    if (!races.has(route)) races.set(route, { raceKey, racing });
  return races;
}

/** The twins of the operators: creations at once taken one at a time; beside each site's field, one the reference does not show (a conforming target may add any), under a respelled name with a retyped value. */
export const operatorTwins: BenignVariant[] = [
  ...[...oneRacePerRoute()].map(([route, { raceKey, racing }]) => ({
    name: `${route}-one-at-a-time`,
    description: `The twin of the at-once family: ${racing} waits for the other, each 40 ms after the one before.`,
    transform: oneAtATime((request, proxy) => (request.route === route ? raceKey(request, proxy) : undefined)),
  })),
  {
    name: 'generated-twin-field-beside-every-site',
    description:
      'Beside the field of every site of the generated catalogue, one the reference does not show: its name respelled after x_, its value of another JSON type.',
    transform: editBody(envelopes, (body, _proxy, request) => {
      for (const site of sites.filter(({ routes }) => routes.includes(request.route)))
        atPath(body, site.path, (holder, name) => {
          holder[`x_${respelled(name)}`] = retyped(holder[name]);
        });
    }),
  },
];
