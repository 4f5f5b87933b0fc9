/**
 * The options a CI job sets per environment rather than per command: which region the org lives
 * in, and the addresses of its API and app (a proxy, a self-hosted app). Each is read from its
 * variable when no flag says where to go; a flag always wins, and the region and the API URL are
 * one choice: either flag replaces both variables.
 */
export const ADDRESS_VARIABLES = { apiUrl: 'PORT_API_URL', region: 'PORT_REGION', appUrl: 'PORT_APP_URL' } as const;

type AddressKey = keyof typeof ADDRESS_VARIABLES;

export interface AddressFlags {
  apiUrl?: string;
  region?: string;
  appUrl?: string;
}

export interface Addresses extends AddressFlags {
  /** The flag or the variable each value came from, for the line that refuses it. */
  names: Record<AddressKey, string>;
}

const FLAG_NAMES: Record<AddressKey, string> = { apiUrl: '--api-url', region: '--region', appUrl: '--app-url' };

export function addressesOf(flags: AddressFlags, env: Readonly<Record<string, string | undefined>>): Addresses {
  const variable = (key: AddressKey) => {
    const value = env[ADDRESS_VARIABLES[key]]?.trim();
    // An empty variable (a CI `${{ vars.X }}` that is not set) is no choice.
    return value ? value : undefined;
  };
  const apiChosen = flags.apiUrl !== undefined || flags.region !== undefined;
  const addresses: Addresses = { names: { ...FLAG_NAMES } };
  for (const key of ['apiUrl', 'region', 'appUrl'] as const) {
    const fromFlag = key === 'appUrl' ? flags.appUrl !== undefined : apiChosen;
    const value = fromFlag ? flags[key] : variable(key);
    if (value === undefined) continue;
    // Regions are names, not values: `EU` is eu, as the config file's REGION already reads.
    addresses[key] = key === 'region' ? value.toLowerCase() : value;
    if (!fromFlag) addresses.names[key] = ADDRESS_VARIABLES[key];
  }
  return addresses;
}
