import type { ChainProblem } from '../../journal/chain.js';
import type { IncidentCode, PromptCode, RulingCode, StepCheck, Text } from '../../rules/types.js';
import type { Language } from '../protocol.js';

/**
 * Every word the display shows, in both languages. Components never hold text of their own: they name a
 * key here (or a code the table sends), so a language is complete or the test says which key is not.
 * `{name}` marks a value filled in at render time.
 */

/** A supervisor signing in, at the table's floor panel and on the floor's page: the same words. */
export const SIGN_IN = {
  signInTitle: { fr: 'Code superviseur ou badge', en: 'Supervisor PIN or badge' },
  'refused.wrong': { fr: 'Code refusé', en: 'PIN refused' },
  'refused.locked': {
    fr: 'Trop d’essais : bloqué jusqu’à {time}',
    en: 'Too many tries: locked until {time}',
  },
  'refused.busy': { fr: 'Vérification en cours : réessayez', en: 'Checking another: try again' },
  'refused.expired': {
    fr: 'Session terminée : identifiez-vous à nouveau',
    en: 'Session ended: sign in again',
  },
  signOut: { fr: 'Terminer', en: 'Sign out' },
} as const satisfies Record<string, Text>;

export const UI = {
  ...SIGN_IN,
  table: { fr: 'Table {id} · {profile}', en: 'Table {id} · {profile}' },
  hand: { fr: 'Coup n° {n}', en: 'Hand #{n}' },
  noHand: { fr: 'Pas de coup en cours', en: 'No hand in play' },
  'phase.idle': { fr: 'En attente', en: 'Waiting' },
  'phase.dealing': { fr: 'Distribution', en: 'Dealing' },
  'phase.betting': { fr: 'Enchères', en: 'Betting' },
  'phase.showdown': { fr: 'Abattage', en: 'Showdown' },
  'phase.ended': { fr: 'Coup terminé', en: 'Hand over' },
  'phase.void': { fr: 'En attente de la redonne', en: 'Waiting for the redeal' },
  'phase.floor': { fr: 'Décision du floor', en: 'Floor deciding' },
  'street.preflop': { fr: 'Préflop', en: 'Preflop' },
  'street.flop': { fr: 'Flop', en: 'Flop' },
  'street.turn': { fr: 'Turn', en: 'Turn' },
  'street.river': { fr: 'River', en: 'River' },
  pot: { fr: 'Pot', en: 'Pot' },
  seat: { fr: 'Place {n}', en: 'Seat {n}' },
  'status.in-hand': { fr: 'En jeu', en: 'In hand' },
  'status.folded': { fr: 'Couché', en: 'Folded' },
  'status.all-in': { fr: 'Tapis', en: 'All-in' },
  'status.out': { fr: 'Hors du coup', en: 'Not dealt in' },
  'status.mucked': { fr: 'Au muck', en: 'Mucked' },
  buttonMark: { fr: 'D', en: 'D' },
  smallBlind: { fr: 'PB', en: 'SB' },
  bigBlind: { fr: 'GB', en: 'BB' },
  dealer: { fr: 'Croupier', en: 'Dealer' },
  board: { fr: 'Board', en: 'Board' },
  burn: { fr: 'Brûlées', en: 'Burn' },
  dead: { fr: 'Cartes mortes', en: 'Dead cards' },
  /** Under a card: which deck it is from (a single letter alone would read as a rank). */
  deck: { fr: 'jeu {id}', en: 'deck {id}' },
  unknownCard: { fr: 'Inconnue', en: 'Unknown' },
  'device.online': { fr: 'En ligne', en: 'Online' },
  'device.offline': { fr: 'Hors ligne', en: 'Offline' },
  'device.fault': { fr: 'En défaut', en: 'Fault' },
  'device.unknown': { fr: 'Pas encore entendu', en: 'Not heard yet' },
  'link.open': { fr: 'En direct', en: 'Live' },
  'link.connecting': { fr: 'Connexion…', en: 'Connecting…' },
  'link.closed': { fr: 'Coupé : reconnexion…', en: 'Offline: reconnecting…' },
  stale: {
    fr: 'Écran figé : il n’est plus à jour tant que la connexion n’est pas revenue.',
    en: 'Not live: this screen is out of date until the connection is back.',
  },
  refused: { fr: 'Messages refusés : {n}', en: 'Messages refused: {n}' },
  callFloor: { fr: 'Appeler le floor', en: 'Call the floor' },
  floorCalled: { fr: 'Floor appelé', en: 'Floor called' },
  /** A pot settled, in a recalled hand. */
  award: { fr: 'Pot {pot} à {winners}', en: 'Pot {pot} to {winners}' },
  /** A supervisor answered the call from the floor's page. */
  floorComing: { fr: '{name} arrive', en: '{name} is on the way' },
  /** The bar's dealer button, before anyone signed in for the down. */
  dealerNone: { fr: 'Croupier ?', en: 'Dealer?' },
  dealerTitle: { fr: 'Croupier : code ou badge', en: 'Dealer: PIN or badge' },
  floorFirst: {
    fr: 'Appelez le floor d’abord : la procédure se fait sous son œil.',
    en: 'Call the floor first: the procedure is done under the floor’s eye.',
  },
  stop: { fr: 'STOP', en: 'STOP' },
  stopDealing: { fr: 'Arrêtez la donne : plus aucune carte', en: 'Stop the deal: no further card' },
  ruling: { fr: 'Décision', en: 'Ruling' },
  rule: { fr: 'Règle', en: 'Rule' },
  seats: { fr: 'Places', en: 'Seats' },
  confirm: { fr: 'Fait', en: 'Done' },
  sending: { fr: 'Envoi…', en: 'Sending…' },
  sensorCheck: { fr: 'Les capteurs peuvent le vérifier : {check}', en: 'Sensors can verify it: {check}' },
  procedureDone: { fr: 'Procédure terminée', en: 'Procedure complete' },
  notSent: { fr: 'Non transmis : touchez à nouveau', en: 'Not sent: touch again' },
  dismiss: { fr: 'Fermer', en: 'Close' },
  language: { fr: 'Langue', en: 'Language' },
  langFr: { fr: 'FR', en: 'FR' },
  langEn: { fr: 'EN', en: 'EN' },
  nextHand: { fr: 'Coup suivant', en: 'Next hand' },
  /** A touch croupier refused: its reason, as croupier words it, or by its code. */
  refusedTouch: { fr: 'Refusé : {error}', en: 'Refused: {error}' },
  'refused.hand-in-play': { fr: 'Refusé : un coup est en cours', en: 'Refused: a hand is in play' },
  'refused.too-few-players': {
    fr: 'Refusé : il faut au moins deux joueurs assis',
    en: 'Refused: fewer than two players are seated',
  },
  // Between hands: the seats as the dealer marked them, and the hand "next hand" would start.
  'seating.in': { fr: 'Assis', en: 'Seated' },
  'seating.out': { fr: 'Sorti', en: 'Out' },
  'seating.absent': { fr: 'Absent', en: 'Away' },
  'seating.waiting': { fr: 'En attente', en: 'Waiting' },
  'seating.empty': { fr: 'Libre', en: 'Empty' },
  /** A newcomer the next hand deals in. */
  comesIn: { fr: 'Entre ce coup', en: 'Comes in' },
  'seatHint.in': { fr: 'Servi au prochain coup', en: 'Dealt in from the next hand' },
  'seatHint.out': { fr: 'Éliminé ou parti : la place se libère', en: 'Busted or gone: the seat is free' },
  'seatHint.absent': { fr: 'Loin de la table, toujours servi', en: 'Away from the table, still dealt in' },
  'seatHint.waiting': {
    fr: 'Nouveau joueur : entre quand la règle le permet',
    en: 'New player: comes in when the rules allow',
  },
  playerName: { fr: 'Nom du joueur (facultatif)', en: 'Player’s name (optional)' },
  markSeat: { fr: 'Marquer la place', en: 'Mark the seat' },
  touchSeat: { fr: 'Touchez une place pour la modifier', en: 'Touch a seat to change it' },
  level: { fr: 'Blindes {sb} / {bb}', en: 'Blinds {sb} / {bb}' },
  ante: { fr: 'ante {ante}', en: 'ante {ante}' },
  'next.button': { fr: 'Bouton : place {n}', en: 'Button: seat {n}' },
  'next.sb': { fr: 'Petite blinde : place {n}', en: 'Small blind: seat {n}' },
  'next.noSb': { fr: 'Pas de petite blinde', en: 'No small blind' },
  'next.bb': { fr: 'Grosse blinde : place {n}', en: 'Big blind: seat {n}' },
  'next.posted': {
    fr: 'Paient la grosse blinde pour entrer : {seats}',
    en: 'Post the big blind to come in: {seats}',
  },
  'next.players': { fr: '{n} joueurs', en: '{n} players' },
  'next.none': {
    fr: 'Marquez au moins deux joueurs assis pour lancer le coup suivant.',
    en: 'Mark at least two players seated to start the next hand.',
  },
  postsMark: { fr: 'Paie GB', en: 'Posts BB' },
  halted: {
    fr: 'Table arrêtée : le journal est en défaut',
    en: 'Table stopped: the journal is at fault',
  },
  haltedWhat: {
    fr: 'Ne jouez plus : le journal n’enregistre plus, ou l’un de ses enregistrements est altéré. Appelez le floor et le technicien ; ce qui est déjà enregistré est conservé.',
    en: 'Do not play on: the journal cannot record, or one of its records is broken. Call the floor and the engineer; what is already recorded is kept.',
  },
  haltedClear: {
    fr: 'Une fois la cause traitée, un superviseur lève l’arrêt (bouton Superviseur) : son nom est inscrit au journal.',
    en: 'Once the cause is dealt with, a supervisor clears the halt (Supervisor button): their name is journaled.',
  },
  clearHalt: { fr: 'Lever l’arrêt de la table', en: 'Clear the table’s halt' },
  clearHaltHint: {
    fr: 'Signé de votre nom au journal. Le jeu reprend où le journal le laisse ; les coups touchés restent signalés.',
    en: 'Signed with your name in the journal. Play goes on where the journal leaves it; the hands it touches stay marked.',
  },
  haltClearing: {
    fr: 'Vérification du journal, puis reprise…',
    en: 'Checking the journal, then play resumes…',
  },
  'refused.not-halted': { fr: 'La table n’est pas arrêtée', en: 'The table is not halted' },
  'refused.not-clearable': {
    fr: 'Impossible ici : le fichier du journal est inutilisable. Appelez le technicien.',
    en: 'Not from here: the journal file cannot be used. Call the engineer.',
  },
  'chain.in': { fr: '⚠ contient l’enregistrement altéré n° {record}', en: '⚠ holds broken record #{record}' },
  'chain.after': {
    fr: '⚠ suit l’enregistrement altéré n° {record}',
    en: '⚠ follows broken record #{record}',
  },
  'chain.cleared': { fr: 'arrêt levé par {name}', en: 'halt cleared by {name}' },
  'chain.unreadable': { fr: '⚠ illisible dans le journal', en: '⚠ unreadable in the journal' },
  'chain.unchecked': {
    fr: 'journal en cours de vérification',
    en: 'journal still being checked',
  },
  supervisor: { fr: 'Superviseur', en: 'Supervisor' },
  signInOk: { fr: 'Valider', en: 'Enter' },
  erase: { fr: 'Effacer', en: 'Erase' },
  noSupervisors: {
    fr: 'Aucun superviseur n’est configuré pour cette table.',
    en: 'No supervisor is configured for this table.',
  },
  signedInAs: { fr: 'Superviseur : {name}', en: 'Supervisor: {name}' },
  recentHands: { fr: 'Les 10 derniers coups', en: 'Last 10 hands' },
  cleanHand: { fr: 'sans incident', en: 'no incident' },
  back: { fr: 'Retour', en: 'Back' },
  'decision.continue': { fr: 'Poursuivre le coup', en: 'Let the hand go on' },
  'decisionHint.continue': {
    fr: 'La décision affichée est levée ; le coup reprend où il en est.',
    en: 'The ruling on screen is overruled; the hand goes on from where it stands.',
  },
  'decision.misdeal': { fr: 'Maldonne', en: 'Misdeal' },
  'decisionHint.misdeal': {
    fr: 'Les cartes sont ramassées et redonnées ; le bouton ne bouge pas.',
    en: 'The cards are collected and redealt; the button stays.',
  },
  'decision.void': { fr: 'Annuler le coup', en: 'Void the hand' },
  'decisionHint.void': {
    fr: 'Le coup est annulé, les mises rendues.',
    en: 'The hand is void, the bets returned.',
  },
  decided: { fr: '« {decision} » enregistré, signé {name}', en: '“{decision}” recorded, signed {name}' },
  // The showdown: who shows when, each pot, who wins it and how it splits.
  showOrder: { fr: 'Ordre d’abattage', en: 'Show order' },
  faceUp: { fr: 'Tapis : toutes les mains face visible', en: 'All-in: every hand face up' },
  'order.tabled': { fr: 'montrée', en: 'shown' },
  'order.mucked': { fr: 'au muck', en: 'mucked' },
  'order.next': { fr: 'à montrer', en: 'to show' },
  mainPot: { fr: 'Pot principal', en: 'Main pot' },
  sidePot: { fr: 'Pot annexe {n}', en: 'Side pot {n}' },
  amountUnknown: { fr: 'montant inconnu', en: 'amount unknown' },
  eligible: { fr: 'places {seats}', en: 'seats {seats}' },
  potPending: { fr: 'à attribuer', en: 'to be awarded' },
  share: { fr: 'Place {n} : {amount}', en: 'Seat {n}: {amount}' },
  winnerSeat: { fr: 'Place {n}', en: 'Seat {n}' },
  oddChip: { fr: '+{amount} jeton impair', en: '+{amount} odd chip' },
  rake: { fr: 'rake {amount}', en: 'rake {amount}' },
  notShown: { fr: 'gagne sans montrer', en: 'wins unshown' },
  pushed: { fr: 'Pots poussés', en: 'Pots pushed' },
  ranking: { fr: 'Classement des mains montrées', en: 'Tabled hands, best first' },
  winningHand: { fr: 'Main gagnante', en: 'Winning hand' },
  inMuck: { fr: 'Au muck', en: 'In the muck' },
} as const satisfies Record<string, Text>;

export type UiKey = keyof typeof UI;

export const INCIDENT_NAMES: Record<IncidentCode, Text> = {
  DECK_COUNT: { fr: 'Jeu incomplet ou en trop', en: 'Wrong deck count' },
  DECK_FACE_UP: { fr: 'Carte retournée dans le jeu', en: 'Face-up card in the deck' },
  DECK_UNKNOWN_CARD: { fr: 'Carte inconnue dans le jeu', en: 'Unknown card in the deck' },
  BUTTON_MISPLACED: { fr: 'Bouton mal placé', en: 'Button misplaced' },
  CARD_TO_WRONG_SEAT: { fr: 'Carte à une place sans joueur', en: 'Card dealt to an empty seat' },
  SEAT_SKIPPED: { fr: 'Joueur oublié', en: 'Player skipped' },
  EXTRA_CARD: { fr: 'Carte en trop', en: 'Extra card' },
  MISSING_CARD: { fr: 'Carte manquante', en: 'Missing card' },
  EXPOSED_CARD: { fr: 'Carte exposée', en: 'Exposed card' },
  FLASHED_CARD: { fr: 'Carte aperçue', en: 'Flashed card' },
  BOXED_CARD: { fr: 'Carte retournée dans le talon', en: 'Boxed card' },
  FOREIGN_CARD: { fr: 'Carte étrangère', en: 'Foreign card' },
  DUPLICATE_CARD: { fr: 'Carte en double', en: 'Duplicate card' },
  MIXED_DECK: { fr: 'Jeux mélangés', en: 'Mixed decks' },
  PREMATURE_FLOP: { fr: 'Flop prématuré', en: 'Premature flop' },
  PREMATURE_TURN: { fr: 'Turn prématuré', en: 'Premature turn' },
  PREMATURE_RIVER: { fr: 'River prématurée', en: 'Premature river' },
  FLOP_NO_BURN: { fr: 'Flop sans brûlée', en: 'Flop without a burn' },
  FLOP_TWO_BURNS: { fr: 'Deux brûlées avant le flop', en: 'Two burns before the flop' },
  FLOP_FOUR_CARDS: { fr: 'Flop de quatre cartes', en: 'Four-card flop' },
  TURN_NO_BURN: { fr: 'Turn sans brûlée', en: 'Turn without a burn' },
  RIVER_NO_BURN: { fr: 'River sans brûlée', en: 'River without a burn' },
  BURN_EXPOSED: { fr: 'Brûlée exposée', en: 'Burn card exposed' },
  CARD_NOT_RETURNED: { fr: 'Carte non rendue', en: 'Card not returned' },
  PROCEDURE_NOT_FOLLOWED: { fr: 'Procédure non suivie', en: 'Procedure not followed' },
  WINNING_HAND_MUCKED: { fr: 'Main gagnante au muck', en: 'Winning hand mucked' },
};

/**
 * What the alert says first for an incident a name alone does not make plain: a tabled winner about to
 * be killed must be stopped before anything else is done.
 */
export const INCIDENT_WARNINGS: Partial<Record<IncidentCode, Text>> = {
  WINNING_HAND_MUCKED: {
    fr: 'Une main abattue qui gagne a touché le muck : elle ne peut pas être tuée. Ne poussez aucun pot.',
    en: 'A tabled winning hand reached the muck: it cannot be killed. Push no pot.',
  },
};

export const RULING_NAMES: Record<RulingCode, Text> = {
  MISDEAL: { fr: 'Maldonne', en: 'Misdeal' },
  HAND_VOID: { fr: 'Coup annulé', en: 'Hand void' },
  DECK_REJECTED: { fr: 'Jeu refusé', en: 'Deck rejected' },
  MOVE_BUTTON: { fr: 'Déplacer le bouton', en: 'Move the button' },
  CARD_LIVE: { fr: 'La carte reste en jeu', en: 'The card plays' },
  REPLACE_AT_END: { fr: 'Remplacée en fin de donne', en: 'Replaced at the end of the deal' },
  BOXED_SET_ASIDE: { fr: 'Carte mise de côté', en: 'Boxed card set aside' },
  CONTINUE: { fr: 'Le coup continue', en: 'Play on' },
  GIVE_TOP_CARD: { fr: 'Carte du dessus au bouton', en: 'Top card to the button' },
  HAND_DEAD: { fr: 'Main morte', en: 'Hand dead' },
  FIRST_TO_BURN: { fr: 'La première carte devient la brûlée', en: 'The first card becomes the burn' },
  FLOP_SECOND_BURN_TO_FLOP: { fr: 'La deuxième brûlée va au flop', en: 'The second burn goes to the flop' },
  FLOP_FOURTH_TO_BURN: { fr: 'La quatrième carte devient la brûlée', en: 'The fourth card becomes the burn' },
  FLOP_SCRAMBLE: { fr: 'Cartes du flop à remélanger', en: 'Flop cards scrambled' },
  PREMATURE_RESHUFFLE_NO_BURN: { fr: 'Remélanger, sans brûler', en: 'Reshuffle, no new burn' },
  PREMATURE_RESHUFFLE_WITH_BURN: { fr: 'Remélanger, avec une brûlée', en: 'Reshuffle, with a burn' },
  TURN_SET_ASIDE: { fr: 'Turn mis de côté', en: 'Turn set aside' },
  BURN_AND_REPLACE: { fr: 'Brûler et remplacer', en: 'Burn and replace' },
  SKIPPED_PLAYER_FOLDS: { fr: 'Le joueur oublié est couché', en: 'The skipped player folds' },
  REDEAL_BOARD: { fr: 'Redonner le board', en: 'Redeal the board' },
  SCRAP_CARD: { fr: 'Carte non standard écartée', en: 'Scrap card: out of play' },
  RETRIEVE_WINNING_HAND: { fr: 'Reprendre la main gagnante', en: 'Retrieve the winning hand' },
  CALL_FLOOR: { fr: 'Appel au floor', en: 'Floor call' },
};

export const PROMPT_NAMES: Record<PromptCode, Text> = {
  ALL_IN_SHOWDOWN: { fr: 'Tapis : toutes les mains face visible', en: 'All-in: every hand face up' },
  NEXT_HAND: { fr: 'Coup suivant : bouton et blindes', en: 'Next hand: button and blinds' },
  RETURN_UNCALLED: { fr: 'Rendre la mise non suivie', en: 'Return the uncalled bet' },
  BUILD_SIDE_POTS: { fr: 'Séparer les pots annexes', en: 'Build the side pots' },
  SHOW_ORDER: { fr: 'Ordre d’abattage', en: 'Show order' },
  SHOWDOWN_RANKING: { fr: 'Classement des mains', en: 'Ranking of the hands' },
};

/** What is wrong with a broken journal record, for the supervisor's last hands. */
export const PROBLEM_NAMES: Record<ChainProblem, Text> = {
  id: { fr: 'numéro hors de la suite', en: 'out of sequence' },
  missing: { fr: 'des enregistrements manquent avant lui', en: 'records are missing before it' },
  prev: { fr: 'il ne suit plus le précédent', en: 'no longer chained to the one before' },
  hash: { fr: 'son contenu a été modifié', en: 'its content was changed' },
  json: { fr: 'son contenu est illisible', en: 'its content cannot be read' },
  unreadable: { fr: 'le fichier est endommagé', en: 'the file is damaged' },
  gone: { fr: 'il a été supprimé', en: 'it was removed' },
  rewritten: { fr: 'il a été remplacé', en: 'it was replaced' },
  added: { fr: 'ajouté hors de croupier', en: 'added from outside croupier' },
  anchor: { fr: 'le début de la chaîne est illisible', en: 'the start of the chain cannot be read' },
};

/** What a sensor-verifiable step waits for, named for the hint under the step. */
export const CHECK_NAMES: Record<StepCheck, Text> = {
  'cards-collected': { fr: 'cartes ramassées', en: 'cards collected' },
  'bets-returned': { fr: 'mises rendues', en: 'bets returned' },
  'button-stays': { fr: 'bouton immobile', en: 'button not moved' },
  'shuffler-verified': { fr: 'mélangeur : 52 cartes vérifiées', en: 'shuffler: 52 cards verified' },
  'puck-moved': { fr: 'bouton déplacé', en: 'button moved' },
  'card-to-burn': { fr: 'carte posée sur les brûlées', en: 'card on the burn spot' },
  'hand-to-muck': { fr: 'main au muck', en: 'hand in the muck' },
  'seat-has-two': { fr: 'deux cartes à la place', en: 'two cards on the seat' },
  'card-lifted': { fr: 'carte retirée de sa place', en: 'card lifted off its spot' },
};

/** A catalogue entry in `language`, with its `{name}` marks filled in. */
export function say(language: Language, text: Text, values: Record<string, string | number> = {}): string {
  return text[language].replace(/\{(\w+)\}/g, (mark, name: string) => String(values[name] ?? mark));
}

/** A UI string by key. */
export function isUiKey(key: string): key is UiKey {
  return Object.hasOwn(UI, key);
}

export function t(language: Language, key: UiKey, values?: Record<string, string | number>): string {
  return say(language, UI[key], values);
}

/** A code the table sends, named from `names`; a code the catalogue does not know is shown as sent. */
export function nameOf(language: Language, names: Readonly<Record<string, Text>>, code: string): string {
  const text = names[code];
  return text ? text[language] : code;
}
