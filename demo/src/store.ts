/**
 * The shopper's state: who is signed in, the cart and the privacy choices. The profile is cached
 * in sessionStorage as `acmeUserData` (the shape docs/spec-coverage.md D2 gives the container's fallback),
 * the cart in sessionStorage, the choices in the cookies the container reads.
 */
import { useSyncExternalStore } from 'react';

export type LoginState = 'Not Logged In' | 'Soft Logged In' | 'Full Logged In';

export interface Profile {
  attributes: { loginState: LoginState; accountNumber?: string; communityType?: string; RMLState?: string };
  profileInfo: { profileID?: string; csgID?: string; organizationId?: string; userIdentifier?: string; cimProfileID?: string };
}

/** The demo's one account. */
export const DEMO_ACCOUNT = {
  email: 'dana.buyer@example.com',
  name: 'Dana',
  company: 'Northwind Fabrication',
  accountNumber: '0812345',
  profileID: '1000042',
  csgID: 'SG-17',
  organizationId: 'ORG-5521',
  userIdentifier: 'u-88120',
  cimProfileID: 'cim-30017',
  communityType: 'business',
} as const;

export const USER_DATA_KEY = 'acmeUserData';
const CART_KEY = 'acmeDemoCart';

export const TRACKING_COOKIE = 'sat_track';
export const ONETRUST_COOKIE = 'OptanonConsent';
/** OneTrust's groups: C0007 is targeting; `C0007:0` is what the container treats as "targeting cookies enabled" (docs/spec-coverage.md §5). */
const ONETRUST_TARGETING_OFF = 'groups%3DC0001%3A1%2CC0007%3A0';
const ONETRUST_TARGETING_ON = 'groups%3DC0001%3A1%2CC0007%3A1';

export interface State {
  profile: Profile;
  cart: string[];
  tracking: boolean;
  targetingOff: boolean;
}

const anonymous = (): Profile => ({ attributes: { loginState: 'Not Logged In' }, profileInfo: {} });

function readJson<T>(key: string): T | undefined {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function readCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(name + '='));
  return hit === undefined ? undefined : hit.slice(name.length + 1);
}
const writeCookie = (name: string, value: string) => {
  document.cookie = `${name}=${value}; path=/; max-age=31536000; SameSite=Lax`;
};

function initial(): State {
  // The demo starts with tracking allowed so that it shows beacons at once; a real store asks
  // first (its consent manager writes the cookie). A choice made here is kept in the cookie.
  if (readCookie(TRACKING_COOKIE) === undefined) writeCookie(TRACKING_COOKIE, 'true');
  if (readCookie(ONETRUST_COOKIE) === undefined) writeCookie(ONETRUST_COOKIE, ONETRUST_TARGETING_ON);
  const cached = readJson<{ profile?: Profile }>(USER_DATA_KEY)?.profile;
  return {
    profile: cached?.attributes?.loginState ? cached : anonymous(),
    cart: readJson<string[]>(CART_KEY) ?? [],
    tracking: readCookie(TRACKING_COOKIE) === 'true',
    targetingOff: (readCookie(ONETRUST_COOKIE) ?? '').includes('C0007%3A0'),
  };
}

let state = initial();
const listeners = new Set<() => void>();
const set = (next: Partial<State>) => {
  state = { ...state, ...next };
  for (const l of listeners) l();
};

export const getState = () => state;
export function useStore(): State {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => state,
  );
}

function saveProfile(profile: Profile) {
  if (profile.attributes.loginState === 'Not Logged In') sessionStorage.removeItem(USER_DATA_KEY);
  else sessionStorage.setItem(USER_DATA_KEY, JSON.stringify({ profile }));
  set({ profile });
}

/** Signs in with the demo account: Full Logged In. */
export function signIn() {
  const a = DEMO_ACCOUNT;
  saveProfile({
    attributes: { loginState: 'Full Logged In', accountNumber: a.accountNumber, communityType: a.communityType, RMLState: 'active' },
    profileInfo: { profileID: a.profileID, csgID: a.csgID, organizationId: a.organizationId, userIdentifier: a.userIdentifier, cimProfileID: a.cimProfileID },
  });
}

/** Ends the session but stays recognised on this device: Soft Logged In (the profile is kept). */
export function signOutRemembered() {
  saveProfile({ ...state.profile, attributes: { ...state.profile.attributes, loginState: 'Soft Logged In' } });
}

/** Signs out and forgets the profile: Not Logged In. */
export function signOut() {
  saveProfile(anonymous());
}

export function addToCart(sku: string) {
  const cart = [...state.cart, sku];
  sessionStorage.setItem(CART_KEY, JSON.stringify(cart));
  set({ cart });
}

export function removeFromCart(index: number) {
  const cart = state.cart.filter((_, i) => i !== index);
  sessionStorage.setItem(CART_KEY, JSON.stringify(cart));
  set({ cart });
}

/** Tracking consent: `sat_track=true` lets the container track; anything else, nothing is sent or kept. */
export function setTracking(on: boolean) {
  writeCookie(TRACKING_COOKIE, on ? 'true' : 'false');
  set({ tracking: on });
}

/** OneTrust's targeting group off (`C0007:0`): the container then keeps Datadog RUM off. */
export function setTargetingOff(off: boolean) {
  writeCookie(ONETRUST_COOKIE, off ? ONETRUST_TARGETING_OFF : ONETRUST_TARGETING_ON);
  set({ targetingOff: off });
}
