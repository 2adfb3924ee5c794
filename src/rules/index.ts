import { twoAllInNoBetting } from './decisions.js';
import { frenchCasino } from './french-casino.js';
import { mainEvent2014 } from './main-event-2014.js';
import { procedure } from './procedures.js';
import { tda2007 } from './tda-2007.js';
import { tda2024 } from './tda-2024.js';
import type { AllInFacts, Decision, IncidentFacts, RuleProfile, Step } from './types.js';

export { nextHandProcedure, procedure, promptProcedure } from './procedures.js';

/** The house rulebooks croupier knows, by the id a table's configuration names. */
export const PROFILES = {
  'main-event-2014': mainEvent2014,
  'french-casino': frenchCasino,
  'tda-2007': tda2007,
  'tda-2024': tda2024,
} as const satisfies Readonly<Record<string, RuleProfile>>;

export type ProfileId = keyof typeof PROFILES;

// Object.keys loses the key type; PROFILES is a closed literal, so the cast holds.
export const PROFILE_IDS = Object.keys(PROFILES) as readonly ProfileId[];

export function isProfileId(id: string): id is ProfileId {
  return Object.hasOwn(PROFILES, id);
}

export function profileById(id: string): RuleProfile | undefined {
  return isProfileId(id) ? PROFILES[id] : undefined;
}

/** A profile's decision on an incident and the procedure the dealer follows. */
export interface Ruled {
  decision: Decision;
  steps: Step[];
}

/** The profile's own procedure for the ruling where it writes one, else the shared one. */
export function rule(profile: RuleProfile, facts: IncidentFacts): Ruled {
  const decision = profile.decide(facts);
  const own = profile.procedures?.[decision.ruling];
  return { decision, steps: own ? own(facts) : procedure(decision.ruling, facts) };
}

/** Whether the betting calls for the ALL_IN_SHOWDOWN prompt: the profile's trigger, else RULINGS.md's. */
export function allInShowdownDue(profile: RuleProfile, facts: AllInFacts): boolean {
  return (profile.allInShowdown ?? twoAllInNoBetting)(facts);
}
