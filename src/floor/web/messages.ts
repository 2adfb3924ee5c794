import { SIGN_IN, say } from '../../display/web/messages.js';
import type { Text } from '../../rules/types.js';
import type { Language } from '../protocol.js';

/**
 * Every word the floor's page shows, in both languages (the incidents', rulings' and phases' names are
 * the dealer display's: one catalogue for the card room). `{name}` marks a value filled in at render.
 */
export const FLOOR_UI = {
  ...SIGN_IN,
  title: { fr: 'Floor · {n} tables', en: 'Floor · {n} tables' },
  calls: { fr: 'Appels et incidents ouverts', en: 'Open calls and incidents' },
  noCalls: { fr: 'Aucun appel en cours', en: 'No open call' },
  dealerCall: { fr: 'Le croupier appelle le floor', en: 'The dealer calls the floor' },
  table: { fr: 'Table {id}', en: 'Table {id}' },
  hand: { fr: 'coup {n}', en: 'hand {n}' },
  step: { fr: 'Étape {n}/{of} : {text}', en: 'Step {n}/{of}: {text}' },
  stepsDone: { fr: 'Procédure terminée', en: 'Procedure complete' },
  waiting: { fr: 'depuis {time}', en: 'since {time}' },
  seats: { fr: 'places {seats}', en: 'seats {seats}' },
  floorEye: { fr: 'Sous l’œil du floor', en: 'Under the floor’s eye' },
  onMyWay: { fr: 'J’arrive', en: 'On my way' },
  coming: { fr: '{name} arrive', en: '{name} is on the way' },
  answerSent: { fr: 'Envoyé : la table confirme…', en: 'Sent: the table confirms…' },
  answerLost: {
    fr: 'La table n’a pas confirmé : touchez à nouveau',
    en: 'The table did not confirm: touch again',
  },
  signInFirst: { fr: 'Identifiez-vous pour répondre', en: 'Sign in to answer' },
  dealer: { fr: 'Croupier : {name}', en: 'Dealer: {name}' },
  noDealer: { fr: 'Croupier non identifié', en: 'Dealer not signed in' },
  'status.online': { fr: 'En ligne', en: 'Online' },
  'status.offline': { fr: 'Hors ligne', en: 'Offline' },
  'status.halted': { fr: 'Arrêtée', en: 'Halted' },
  'status.unknown': { fr: 'Pas encore entendue', en: 'Not heard yet' },
  devicesOk: { fr: 'Appareils OK', en: 'Devices OK' },
  devicesDown: { fr: 'Appareils : {ids}', en: 'Devices: {ids}' },
  'broker.connected': { fr: 'Broker : en direct', en: 'Broker: live' },
  'broker.connecting': { fr: 'Broker : connexion…', en: 'Broker: connecting…' },
  'broker.offline': { fr: 'Broker injoignable', en: 'Broker unreachable' },
  'link.closed': { fr: 'Page coupée : reconnexion…', en: 'Page offline: reconnecting…' },
  signIn: { fr: 'Superviseur', en: 'Supervisor' },
  notSent: { fr: 'Non transmis : touchez à nouveau', en: 'Not sent: touch again' },
  dismiss: { fr: 'Fermer', en: 'Close' },
  sound: { fr: 'Son', en: 'Sound' },
  newCall: { fr: 'Nouvel appel : table {id}', en: 'New call: table {id}' },
  room: { fr: 'Salle', en: 'Room' },
  stats: { fr: 'Statistiques', en: 'Statistics' },
  csv: { fr: 'Télécharger (CSV)', en: 'Download (CSV)' },
  'col.table': { fr: 'Table', en: 'Table' },
  'col.dealer': { fr: 'Croupier', en: 'Dealer' },
  'col.since': { fr: 'Début', en: 'From' },
  'col.hands': { fr: 'Coups', en: 'Hands' },
  'col.incidents': { fr: 'Incidents', en: 'Incidents' },
  'col.misdeals': { fr: 'Maldonnes /100', en: 'Misdeals /100' },
  'col.floor': { fr: 'Appels floor /100', en: 'Floor calls /100' },
  langFr: { fr: 'FR', en: 'FR' },
  langEn: { fr: 'EN', en: 'EN' },
} as const satisfies Record<string, Text>;

export type FloorKey = keyof typeof FLOOR_UI;

export function ft(language: Language, key: FloorKey, values?: Record<string, string | number>): string {
  return say(language, FLOOR_UI[key], values);
}

export function isFloorKey(key: string): key is FloorKey {
  return Object.hasOwn(FLOOR_UI, key);
}
