/**
 * Faults of operations at once, as real implementations race: a handler that reads, takes a few tens
 * of milliseconds, then writes what it read (a read-modify-write without a lock), so that another
 * request of the same kind coming meanwhile works on what it read too. Only requests that overlap
 * meet them (the model's bursts, src/model/at-once.ts). And their benign twins: the same requests
 * taken one at a time, or the racing one refused where the test helpers' contract allows it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { answer, atPath, customerOf, editData, memoSet, payerOf, succeeded, type Json } from './edits.ts';
import { callOperation, snapshot, type ProxyContext, type ProxyRequest, type Route, type Transform } from './proxy.ts';
import type { BenignVariant } from './kinds.ts';

/** How long a racing handler takes between its read and its write. */
const raceWindowMs = 40;
/** Requests of one key that come this close together may race under other timing (ProxyContext.mayRace). */
const closeCallMs = 250;

/** Says the request may race where another of its key came less than closeCallMs before it. */
function comesClose(proxy: ProxyContext, key: string): void {
  const now = Date.now();
  const last = proxy.memo.get(`came ${key}`) as number | undefined;
  proxy.memo.set(`came ${key}`, now);
  if (last !== undefined && now - last < closeCallMs) proxy.mayRace();
}

/**
 * Marks a request under way on `key` (with what tells it apart) from its coming until its answer
 * (raceOver), and takes the race window before it goes on: answers what told apart the requests of
 * that key under way when it came. Told apart by what the request carries, not by the request
 * object, so that the reach run's copies of a request and of its answer find each other.
 */
async function raceOn(proxy: ProxyContext, key: string, told: string): Promise<string[]> {
  comesClose(proxy, key);
  const before = underWay(proxy, key);
  proxy.memo.set(`under way ${key}`, [...before, told]);
  await sleep(raceWindowMs);
  return before;
}

function raceOver(proxy: ProxyContext, key: string, told: string): void {
  const left = [...underWay(proxy, key)];
  const at = left.indexOf(told);
  if (at >= 0) left.splice(at, 1);
  proxy.memo.set(`under way ${key}`, left);
}

const underWay = (proxy: ProxyContext, key: string) => (proxy.memo.get(`under way ${key}`) as string[] | undefined) ?? [];

/** Races on `key`, the request told apart by its body: it collides with the first request under way when it came. */
async function collideOn(proxy: ProxyContext, key: string, request: ProxyRequest): Promise<void> {
  const [other] = await raceOn(proxy, key, bodyOf(request));
  if (other) proxy.memo.set(`collides ${bodyOf(request)}`, other);
}

/** Keeps what this request's answer gave as `what`, and answers what the answer of the request it collided with gave, once that came. */
async function takenFrom(proxy: ProxyContext, what: string, request: ProxyRequest, own: string): Promise<unknown> {
  proxy.memo.set(`${what} ${bodyOf(request)}`, own);
  const collides = proxy.memo.get(`collides ${bodyOf(request)}`);
  return collides === undefined ? undefined : answered(proxy, `${what} ${collides}`);
}

/** What the memo holds at `key` once it does: the other request's answer may come after this one's. */
async function answered(proxy: ProxyContext, key: string): Promise<unknown> {
  for (let waited = 0; !proxy.memo.has(key) && waited < 5 * raceWindowMs; waited += 10) await sleep(10);
  return proxy.memo.get(key);
}

/** A request body as a key: what the request's own answer finds it by (a reference's callbackUrl is the proxy's own by then). */
const bodyOf = (request: ProxyRequest) => {
  const { callbackUrl: _relayed, ...body } = (request.json as Json) ?? {};
  return snapshot(body);
};

/** What a stored method or a payment's means is told by: its type and last digits. */
const digitsOf = (paid: Json): string | undefined =>
  typeof paid?.card?.number === 'string'
    ? `CC ${paid.card.number.slice(-4)}`
    : typeof paid?.phoneNumber === 'string'
      ? `MW ${paid.phoneNumber.slice(-3)}`
      : undefined;
const storedDigitsOf = (method: Json): string => (method?.type === 'CC' ? `CC ${method.last4Digitis}` : `MW ${method?.last3Digitis}`);

/** What the payments of one customer race on: their customer's list of stored methods. */
const paymentsOf = (customer: string) => `pay ${customer}`;
const storeKey = (request: ProxyRequest, proxy: ProxyContext) => {
  const payer = payerOf(request, proxy);
  return payer && paymentsOf(payer);
};

/** A field of an answer's object, where the operation that creates the object gives it a value. */
export interface CreatedField {
  name: string;
  /** Where the field is in an answer's body. */
  path: string[];
  /** The answers that show the object, the creation's own among them or not. */
  routes: Route[];
}

export interface Creation {
  route: Route;
  raceKey: (request: ProxyRequest, proxy: ProxyContext) => string | undefined;
  /** What races it, for a description. */
  racing: string;
  /** The operator where the created object is not in its creation's answer (collidesAtOnce finds it there by its id), and where it then shows. */
  collides?: { transform: (field: CreatedField) => Transform; shows: (field: string) => string };
}

/**
 * A stored method made by a payment that came while another payment of its customer was under way
 * shows, at the field, the value the other's stored method has, in every list of the customer. A
 * stored method is not in its payment's answer: it is told in the list by the means paid with.
 */
function storedMethodCollidesAtOnce(field: CreatedField): Transform {
  const name = field.path.at(-1)!;
  return {
    async request(request, proxy) {
      const key = storeKey(request, proxy);
      const digits = digitsOf(request.json);
      if (!key || !digits) return;
      const [other] = await raceOn(proxy, key, digits);
      if (other) proxy.memo.set(`collides ${key} ${digits}`, other);
    },
    response(response, request, proxy) {
      const key = storeKey(request, proxy);
      const digits = digitsOf(request.json);
      if (key && digits) raceOver(proxy, key, digits);
      editData(['listMethods'], (data) => {
        if (!Array.isArray(data)) return;
        for (const method of data) {
          const other = proxy.memo.get(`collides ${paymentsOf(request.param!.toLowerCase())} ${storedDigitsOf(method)}`);
          const taken = other !== undefined && data.find((listed) => storedDigitsOf(listed) === other);
          if (taken && method) method[name] = taken[name];
        }
      }).response!(response, request, proxy);
    },
  };
}

/**
 * The creations whose racing requests may be given one value, by the object they create: the
 * operation, and what the requests that race share (a counter of the customer's, the references' one).
 */
export const creations: Partial<Record<string, Creation>> = {
  checkout: {
    route: 'createCheckout',
    raceKey: (request) => customerOf(request.json as Json) && `checkout ${customerOf(request.json as Json)}`,
    racing: 'a checkout of the same customer',
  },
  payment: { route: 'createReference', raceKey: () => 'reference', racing: 'a reference' },
  'stored-method': {
    route: 'payCheckout',
    raceKey: storeKey,
    racing: 'a payment of the same customer',
    collides: { transform: storedMethodCollidesAtOnce, shows: (field) => `stores a method that shows the other's ${field} in every list of the customer` },
  },
};

/**
 * The object created while another creation of its race key is under way shows, at the field, the
 * value the other's object has, wherever it is answered (a value read by both before either wrote
 * it): the creation's own answer, and every later answer about its object (told by its id).
 */
export function collidesAtOnce(field: CreatedField, creation: Creation): Transform {
  const valueKey = (id: string) => `${field.name} of ${id}`;
  return {
    async request(request, proxy) {
      const key = request.route === creation.route ? creation.raceKey(request, proxy) : undefined;
      if (key) await collideOn(proxy, key, request);
    },
    async response(response, request, proxy) {
      const body = response.json as Json;
      const id: unknown = body?.data?.id;
      const creating = request.route === creation.route && creation.raceKey(request, proxy);
      if (creating) raceOver(proxy, creating, bodyOf(request));
      if (!succeeded(response) || typeof id !== 'string') return;
      if (creating) {
        const other = await takenFrom(proxy, `created ${field.name}`, request, id);
        if (typeof other === 'string') proxy.memo.set(`collides ${id}`, other);
      }
      if (!field.routes.includes(request.route)) return;
      const other = proxy.memo.get(`collides ${id}`) as string | undefined;
      if (other === undefined) return atPath(body, field.path, (holder, name) => void proxy.memo.set(valueKey(id), holder[name]));
      const value = (await answered(proxy, valueKey(other))) ?? (await valueFromRead(proxy, field, other));
      if (value !== undefined) atPath(body, field.path, (holder, name) => (holder[name] = value));
    },
  };
}

/** The field's value of the object with this id, read where an operation reads it (a payment's). */
async function valueFromRead(proxy: ProxyContext, field: CreatedField, id: string): Promise<unknown> {
  if (!field.routes.includes('getPayment')) return undefined;
  let value: unknown;
  atPath((await callOperation(proxy, 'getPayment', { param: id })).json, field.path, (holder, name) => (value = holder[name]));
  return value;
}

/**
 * A state that writes of one kind change, so that two at once race on it (a customer's list, which
 * each payment that stores a method adds to; a payment's state, which a confirmation moves): the
 * sites of the at-once family's writes.
 */
export interface SharedState {
  name: string;
  route: Route;
  /** What the writes of one state race on, and what tells a write's effect apart. */
  raceKey: (request: ProxyRequest, proxy: ProxyContext) => string | undefined;
  told: (request: ProxyRequest) => string | undefined;
  /** Whether each write has an effect of its own (else two at once write the same). */
  ownEffects: boolean;
  clause: string;
  disturbs: string[];
  /** What races it and what each write does, for a description. */
  racing: string;
  effect: string;
  /** The answers that read the state, without the effects undone. */
  reads: (undone: Set<string>) => NonNullable<Transform['response']>;
}

export const sharedStates: SharedState[] = [
  {
    name: 'customer-list',
    route: 'payCheckout',
    raceKey: storeKey,
    told: (request) => digitsOf(request.json),
    ownEffects: true,
    clause: 'TOK-1',
    // The method lost may be one stored with consent.
    disturbs: ['TOK-2'],
    racing: 'a payment of a customer that stores a method while another of theirs is under way',
    effect: 'stored method',
    reads: (undone) =>
      editData(['listMethods'], (data) => {
        if (Array.isArray(data)) data.splice(0, data.length, ...data.filter((method) => !undone.has(storedDigitsOf(method))));
      }).response!,
  },
  {
    name: 'payment-state',
    route: 'confirmPayment',
    raceKey: (request) => (request.route === 'confirmPayment' && request.param ? `confirm ${request.param}` : undefined),
    told: (request) => request.param ?? undefined,
    ownEffects: false,
    clause: 'REF-6',
    disturbs: [],
    racing: 'a confirmation of a payment whose other confirmation is under way',
    effect: 'confirmation',
    reads: (undone) =>
      editData(['getPayment'], (data) => {
        if (data?.stateDetails && undone.has(data.id)) data.stateDetails.state = 'pending';
      }).response!,
  },
];

/**
 * Writes of the state that race: a write coming while others of its key are under way undoes what
 * `undone` picks of its own effect and theirs, in every later read of the state.
 */
export function racingWrites(state: SharedState, undone: (own: string, underWay: string[]) => string[]): Transform {
  const undoneKey = `undone ${state.name}`;
  return {
    async request(request, proxy) {
      const key = state.raceKey(request, proxy);
      const told = state.told(request);
      if (!key || !told) return;
      const underWay = await raceOn(proxy, key, told);
      for (const effect of undone(told, underWay)) memoSet<string>(proxy, undoneKey).add(effect);
    },
    response(response, request, proxy) {
      const key = state.raceKey(request, proxy);
      const told = state.told(request);
      if (key && told) raceOver(proxy, key, told);
      return state.reads(memoSet<string>(proxy, undoneKey))(response, request, proxy);
    },
  };
}

/** The requests of one key are taken one at a time: each starts a race window after the one before. */
export function oneAtATime(keyOf: (request: ProxyRequest, proxy: ProxyContext) => string | undefined): Transform {
  return {
    async request(request, proxy) {
      const key = keyOf(request, proxy);
      if (!key) return;
      comesClose(proxy, key);
      const at = Math.max(Date.now(), (proxy.memo.get(`next ${key}`) as number | undefined) ?? 0);
      proxy.memo.set(`next ${key}`, at + raceWindowMs);
      if (at <= Date.now()) return;
      // As a queue in front of a service says it held a request: the mark makes the wait an effect the proxy counts.
      request.headers['x-queued-ms'] = String(at - Date.now());
      await sleep(at - Date.now());
    },
  };
}

/** A confirmation of a payment whose other confirmation is under way is refused, 409, as the helpers' contract answers one already confirmed. */
const confirmationAtOnceRefused: Transform = {
  async request(request, proxy) {
    if (request.route !== 'confirmPayment' || !request.param) return;
    if (underWay(proxy, `confirm ${request.param}`).length > 0) return answer(409, { success: false, error: 'already_confirmed' });
    await raceOn(proxy, `confirm ${request.param}`, request.param);
  },
  response(_response, request, proxy) {
    if (request.route === 'confirmPayment' && request.param) raceOver(proxy, `confirm ${request.param}`, request.param);
  },
};

export const atOnceBenignVariants: BenignVariant[] = [
  {
    name: 'confirmation-at-once-refused',
    description: 'A confirmation of a payment while another confirmation of it is under way is answered 409, as one of a payment already confirmed.',
    transform: confirmationAtOnceRefused,
  },
];
