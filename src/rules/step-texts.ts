import type { ExpectedStep, IncidentCode, Street, Text } from './types.js';

/**
 * The message catalogue of procedure steps: every text the dealer display, MQTT and the journal show for
 * a step, in French and English, keyed by the step's code. A text that depends on the facts (a street,
 * a seat, an amount, the incident) or on the procedure it belongs to is a small function of typed
 * parameters; nothing else interpolates into a text, so no code or English word ends up in French.
 */

/**
 * The streets as the French rulebooks (../shared/rules/) name them: the card-room words flop, turn and
 * river stay, always with an article that agrees: le flop, le turn, la river.
 */
const STREET: Readonly<Record<Street, Text>> = {
  flop: { fr: 'le flop', en: 'the flop' },
  turn: { fr: 'le turn', en: 'the turn' },
  river: { fr: 'la river', en: 'the river' },
};

function text(fr: string, en: string): Text {
  return { fr, en };
}

/** A text worded for one of a few cases, the case named by the entry's one parameter `key`. */
function by<K extends string, V extends string>(
  key: K,
  texts: Readonly<Record<V, Text>>,
): (params: Record<K, V>) => Text {
  return (params) => texts[params[key]];
}

/** A text worded for the incident, or `otherwise` for one it does not name. */
function byIncident(
  texts: Readonly<Partial<Record<IncidentCode, Text>>>,
  otherwise: Text,
): (params: { incident: IncidentCode }) => Text {
  return ({ incident }) => texts[incident] ?? otherwise;
}

type Entry = Text | ((params: never) => Text);

export const STEP_TEXTS = {
  /** The floor called to watch a procedure (its first step), or to decide (the CALL_FLOOR ruling). */
  CALL_FLOOR: by('to', {
    watch: text(
      'Appelez le floor : la suite se fait sous son œil.',
      'Call the floor: what follows is done under the floor’s eye.',
    ),
    decide: text('Appelez le floor.', 'Call the floor.'),
  }),

  // MISDEAL, HAND_VOID
  STOP_DEAL: by('ruling', {
    MISDEAL: text('Maldonne : arrêtez la donne.', 'Misdeal: stop dealing.'),
    HAND_VOID: text('Coup annulé : arrêtez le jeu.', 'Hand void: stop play.'),
  }),
  COLLECT_CARDS: text(
    'Ramassez toutes les cartes : sièges, board et cartes brûlées.',
    'Collect every card: seats, board and burn pile.',
  ),
  RETURN_BETS: by('ruling', {
    MISDEAL: text(
      'Rendez blinds, antes et mises à leurs propriétaires.',
      'Return blinds, antes and bets to their owners.',
    ),
    HAND_VOID: text(
      'Rendez blinds, antes et toutes les mises de ce coup ; les coups précédents restent acquis.',
      'Return blinds, antes and every bet of this hand; earlier hands stand.',
    ),
  }),
  BUTTON_STAYS: text('Le bouton ne bouge pas.', 'The button stays where it is.'),
  INSPECT_DECK: text(
    'Sortez le jeu de la table : faites-le contrôler ou remplacer.',
    'Take the deck off the table: have it inspected or replaced.',
  ),
  RESHUFFLE: ({ ruling }: { ruling: 'MISDEAL' | 'HAND_VOID' | 'DECK_REJECTED' }) =>
    ruling === 'DECK_REJECTED'
      ? text(
          'Repassez le jeu au mélangeur (contrôle : 52 cartes).',
          'Run the deck through the shuffler again (check: 52 cards).',
        )
      : text(
          'Mélangez le jeu au mélangeur (contrôle : 52 cartes).',
          'Shuffle the deck in the shuffler (check: 52 cards).',
        ),
  REDEAL: text(
    'Redonnez le coup à l’identique : même bouton, mêmes blinds.',
    'Redeal the hand exactly: same button, same blinds.',
  ),

  // DECK_REJECTED
  DO_NOT_DEAL: text('Ne distribuez pas ce jeu.', 'Do not deal this deck.'),
  FIX_DECK: byIncident(
    {
      DECK_COUNT: text(
        'Complétez le jeu ou retirez les cartes en trop, ou prenez l’autre jeu.',
        'Complete the deck or remove the extra cards, or bring the other deck.',
      ),
      DECK_FACE_UP: text(
        'Retournez la carte face visible, ou prenez l’autre jeu.',
        'Turn the face-up card over, or bring the other deck.',
      ),
      DECK_UNKNOWN_CARD: text(
        'Retirez la carte étrangère, ou prenez l’autre jeu.',
        'Remove the foreign card, or bring the other deck.',
      ),
    },
    text('Réparez le jeu ou prenez l’autre jeu.', 'Fix the deck or bring the other deck.'),
  ),

  // MOVE_BUTTON
  MOVE_BUTTON: text(
    'Placez le bouton sur le siège indiqué, avant la première carte.',
    'Move the button to the seat shown, before the first card.',
  ),
  HEADS_UP_DEAL: text(
    'Tête-à-tête : le bouton est de petite blinde ; donnez la première carte à la grosse blinde.',
    'Heads-up: the button posts the small blind; deal the first card to the big blind.',
  ),
  DEAD_BUTTON: text(
    'Bouton mort : il peut rester sur un siège vide.',
    'Dead button: it may sit on an empty seat.',
  ),

  // CARD_LIVE
  CARD_STAYS: text('La carte reste en jeu.', 'The card stays in play.'),
  ANNOUNCE_CARD: text('Annoncez-la à toute la table.', 'Announce it to the whole table.'),
  FLOOR_MAY_PENALISE: text(
    'Le floor pourra sanctionner le joueur après le coup.',
    'The floor may penalise the player after the hand.',
  ),

  // REPLACE_AT_END
  SET_APART: text('Carte morte : posez-la à part, face visible.', 'Dead card: set it apart, face up.'),
  FINISH_DEAL: text('Terminez la donne normalement.', 'Finish the deal normally.'),
  GIVE_REPLACEMENT: ({ toButton }: { toButton: boolean }) => {
    const fr = 'Donnez ensuite au siège une carte de plus : celle qui devait être la première brûlée.';
    const en = 'Then give the seat one more card: the one that would have been the first burn.';
    return toButton
      ? text(
          `${fr} Le bouton reçoit ainsi deux cartes de suite.`,
          `${en} The button thus gets two cards in a row.`,
        )
      : text(fr, en);
  },
  ON_TOP_OF_STUB: text(
    'Posez la carte morte face visible sur le talon : c’est la brûlée du flop.',
    'Put the dead card face up on top of the stub: it is the flop burn card.',
  ),
  BURN_FACE_DOWN: text(
    'Au flop, brûlez-la et posez-la face cachée avec les brûlées.',
    'At the flop, burn it and lay it face down on the burn pile.',
  ),

  // BOXED_SET_ASIDE
  SHOW_BOXED: text(
    'Montrez la carte retournée dans le paquet à tous les joueurs.',
    'Show the boxed card to all players.',
  ),
  SET_ASIDE: text('Mettez-la de côté : feuille morte pour ce coup.', 'Set it aside: dead for this hand.'),
  CARRY_ON: text(
    'Continuez comme si elle n’était pas dans le paquet : la carte suivante va à sa place.',
    'Carry on as if it were not in the deck: the next card goes in its place.',
  ),

  // CONTINUE
  CONTINUE: byIncident(
    {
      BURN_EXPOSED: text(
        'La carte brûlée reste brûlée : le coup continue.',
        'The burn card stays burned: play on.',
      ),
      FLOP_NO_BURN: text(
        'Le flop reste tel quel : brûlez une seule carte avant le turn.',
        'The flop stands as dealt: burn one card only before the turn.',
      ),
      BUTTON_MISPLACED: text(
        'Le bouton reste où il est pour ce coup ; le coup suivant part de là.',
        'The button stays where it is for this hand; the next hand moves on from there.',
      ),
    },
    text('Rien à corriger : le coup continue.', 'Nothing to correct: play on.'),
  ),

  // GIVE_TOP_CARD, HAND_DEAD
  GIVE_TOP_CARD: text(
    'Donnez au bouton la carte du dessus du talon : c’est la sienne.',
    'Give the button the top card of the stub: it is the card meant for it.',
  ),
  HAND_DEAD: text(
    'La main de ce siège est morte : ses cartes vont à la défausse.',
    'This seat’s hand is dead: its cards go to the muck.',
  ),
  PLAY_ON: by('ruling', {
    HAND_DEAD: text('Les autres joueurs continuent le coup.', 'The others play on.'),
    SKIPPED_PLAYER_FOLDS: text(
      'Le coup continue sans rétablir le board.',
      'Play continues without restoring the board.',
    ),
  }),

  // FIRST_TO_BURN, and the flop's other errors
  FIRST_TO_BURN: ({ street }: { street: Street }) => {
    const card =
      street === 'flop'
        ? text('La première carte du flop', 'The first flop card')
        : text(`La carte donnée pour ${STREET[street].fr}`, `The card dealt as ${STREET[street].en}`);
    return text(
      `${card.fr} devient la carte brûlée : posez-la avec les brûlées.`,
      `${card.en} becomes the burn card: move it to the burn pile.`,
    );
  },
  /** The street completed: by the next card, or (the second burn gone to the flop) by as many as it lacks. */
  COMPLETE_STREET: (params: { street: Street } | { flopFromSecondBurn: true }) => {
    if ('flopFromSecondBurn' in params)
      return text(
        'Complétez le flop avec la ou les cartes suivantes.',
        'Complete the flop with the next card(s).',
      );
    return params.street === 'flop'
      ? text(
          'Donnez la carte suivante comme troisième carte du flop.',
          'Deal the next card as the third flop card.',
        )
      : text(
          `Donnez la carte suivante pour ${STREET[params.street].fr}.`,
          `Deal the next card as ${STREET[params.street].en}.`,
        );
  },
  SECOND_BURN_TO_FLOP: text(
    'La deuxième carte brûlée devient la première carte du flop.',
    'The second burn card becomes the first flop card.',
  ),
  LAST_FLOP_CARD_TO_BURN: text(
    'Si le flop était déjà sorti, sa dernière carte devient la carte brûlée du turn.',
    'If the flop was already out, its last card becomes the turn burn card.',
  ),
  FOURTH_TO_BURN: text(
    'La quatrième carte du flop, la dernière sortie, devient la carte brûlée du turn.',
    'The fourth flop card, the last one out, becomes the turn burn card.',
  ),
  TURN_WITHOUT_BURN: text(
    'Au turn, donnez la carte suivante sans brûler.',
    'At the turn, deal the next card without burning.',
  ),

  // FLOP_SCRAMBLE: the cards mixed and drawn are those of the flop error
  MIX_FACE_DOWN: byIncident(
    {
      FLOP_TWO_BURNS: text(
        'Mélangez face cachée les deux cartes brûlées, avec les cartes du flop si elles sont déjà sorties.',
        'Mix the two burn cards face down, with the flop cards if they are already out.',
      ),
      FLOP_FOUR_CARDS: text(
        'Mélangez face cachée les quatre cartes du flop ; la carte brûlée reste.',
        'Mix the four flop cards face down; the burn card stays.',
      ),
    },
    text('Mélangez face cachée les trois cartes du flop.', 'Mix the three flop cards face down.'),
  ),
  DRAW_BURN_AND_FLOP: byIncident(
    {
      FLOP_TWO_BURNS: text(
        'Tirez-en la carte brûlée, puis le flop, complété par le talon ; une carte en trop devient la brûlée du turn.',
        'Draw the burn card from them, then the flop, completed from the stub; a card left over is the turn burn card.',
      ),
      FLOP_FOUR_CARDS: text(
        'Tirez-en un nouveau flop, puis la carte brûlée du turn.',
        'Draw a new flop from them, then the turn burn card.',
      ),
    },
    text(
      'Tirez-en la carte brûlée ; les deux autres restent au flop.',
      'Draw the burn card from them; the other two stay on the flop.',
    ),
  ),

  // FLOP_SCRAMBLE as a profile writes each step out (tda-2024 #39-A, #39-B)
  HOLD_ACTION: text(
    'Arrêtez : personne ne parle avant que le flop soit complet.',
    'Stop: nobody acts until the flop is complete.',
  ),
  SCRAMBLE: by('cards', {
    four: text(
      'Retournez face cachée les quatre cartes du board et mélangez-les.',
      'Turn the four board cards face down and scramble them.',
    ),
    out: text(
      'Retournez face cachée les cartes du flop sorties et mélangez-les.',
      'Turn the flop cards that are out face down and scramble them.',
    ),
  }),
  /** One of the scrambled cards drawn at random to the burn spot: by the floor (#39-A) or the dealer (#39-B). */
  DRAW_AT_RANDOM: ({ by: who, burn }: { by: 'floor' | 'dealer'; burn: 'flop' | 'turn' }) => {
    const draw =
      who === 'floor'
        ? text(
            'Le floor en tire une au hasard et la pose sur les brûlées',
            'The floor draws one at random and puts it on the burn spot',
          )
        : text(
            'Tirez-en une au hasard et posez-la sur les brûlées',
            'Draw one at random and put it on the burn spot',
          );
    const of = burn === 'flop' ? text('du flop', 'the flop') : text('du turn', 'the turn');
    return text(`${draw.fr} : c’est la brûlée ${of.fr}.`, `${draw.en}: it is ${of.en} burn card.`);
  },
  REST_ARE_FLOP: text(
    'Les trois autres se retournent face visible : c’est le flop.',
    'The other three go face up: they are the flop.',
  ),
  COMPLETE_FLOP_NO_BURN: text(
    'Complétez le flop avec le talon, sans brûler avant.',
    'Complete the flop from the stub, with no burn before it.',
  ),

  // PREMATURE_RESHUFFLE_NO_BURN, PREMATURE_RESHUFFLE_WITH_BURN
  TAKE_BACK: ({ street, withBurn }: { street: Street; withBurn: boolean }) => {
    const name = STREET[street];
    if (withBurn)
      return text(
        `Reprenez toutes les cartes sorties pour ${name.fr}, carte brûlée comprise.`,
        `Take back every card out for ${name.en}, burn card included.`,
      );
    const out = street === 'flop' ? text('les cartes du flop sorties', 'the flop cards out') : name;
    return text(`Reprenez ${out.fr} ; la carte brûlée reste.`, `Take back ${out.en}; the burn card stays.`);
  },
  /** The betting round under way when the premature card came, or the flop's (TURN_SET_ASIDE). */
  FINISH_BETTING: by('round', {
    open: text('Laissez finir le tour d’enchères.', 'Let the betting round finish.'),
    flop: text('Laissez finir les enchères du flop.', 'Let the flop betting finish.'),
  }),
  SHUFFLE_WITH_STUB: text(
    'Mélangez-les avec le talon, jamais avec les cartes couchées ou flashées.',
    'Shuffle them with the stub, never with folded or flashed cards.',
  ),
  /** tda-2024 #39-D: the stub reshuffled face down, the muck and the burns left out. */
  SHUFFLE_STUB_FACE_DOWN: text(
    'Remettez-les dans le talon et mélangez tout le talon face cachée, sans montrer de carte, sans la défausse ni les brûlées.',
    'Put them into the stub and shuffle the whole stub face down, exposing no card, without the muck or the burn pile.',
  ),
  REDEAL_STREET: ({ street, withBurn }: { street: Street; withBurn: boolean }) => {
    const name = STREET[street];
    return withBurn
      ? text(`Brûlez une carte et donnez à nouveau ${name.fr}.`, `Burn a card and deal ${name.en} again.`)
      : text(`Donnez à nouveau ${name.fr} sans brûler.`, `Deal ${name.en} again without burning.`);
  },

  // TURN_SET_ASIDE
  SET_TURN_ASIDE: text('Mettez de côté le turn prématuré.', 'Set the premature turn aside.'),
  BURN_AND_DEAL_TURN: text(
    'Brûlez une nouvelle carte et donnez la suivante pour le turn.',
    'Burn a new card and deal the next one as the turn.',
  ),
  SHUFFLE_SET_ASIDE: text(
    'Avant la river, mélangez la carte mise de côté avec le talon.',
    'Before the river, shuffle the set-aside card into the stub.',
  ),
  RIVER_WITHOUT_BURN: text('Donnez la river sans brûler.', 'Deal the river without burning.'),

  // BURN_AND_REPLACE
  BURN_SEEN_CARD: text('Brûlez la carte vue.', 'Burn the seen card.'),
  PLAYER_ACTS: text(
    'Le joueur qui n’avait pas parlé se prononce maintenant.',
    'The player who had not acted acts now.',
  ),
  /** french-casino: the 3rd card of the stub on the flop and the turn, the next one on the river. */
  REPLACE_SEEN_CARD: ({ street }: { street: Street }) =>
    street === 'river'
      ? text(
          'Une fois les enchères finies, remplacez-la par la carte suivante du talon.',
          'Once betting is over, replace it with the next card of the stub.',
        )
      : text(
          'Une fois les enchères finies, remplacez-la par la 3e carte du talon.',
          'Once betting is over, replace it with the 3rd card of the stub.',
        ),
  STUB_MIXED: text(
    'Si le talon a été mélangé avec des cartes couchées : mélangez-y la carte vue, brûlez une carte et tirez une nouvelle river.',
    'If the stub was mixed with folded cards: shuffle the seen card in, burn a card and deal a new river.',
  ),

  // SKIPPED_PLAYER_FOLDS
  SKIPPED_PLAYER_FOLDS: text(
    'Le joueur qui n’avait pas parlé ne peut plus parler : il passe, ses cartes vont à la défausse.',
    'The player who had not acted loses the right to act: the hand is folded.',
  ),

  // REDEAL_BOARD
  REMOVE_WRONG_DECK: text(
    'Retirez du board et des brûlées les cartes de l’autre jeu.',
    'Take the other deck’s cards off the board and the burn pile.',
  ),
  REDEAL_BOARD: text('Redonnez le board avec le bon jeu.', 'Deal the board again from the right deck.'),

  // SCRAP_CARD (tda-2024 #35-D: a non-standard card found after substantial action); its SET_APART above
  SHOW_SCRAP: text(
    'Arrêtez : montrez la carte à la table et confirmez ce que c’est.',
    'Stop: show the card to the table and confirm what it is.',
  ),
  /** What takes the scrap's place, by where it lay. */
  REPLACE_SCRAP: by('zone', {
    board: text(
      'Au board, la carte suivante du talon prend sa place, sans brûler.',
      'On the board, the next card off the stub takes its place, with no burn.',
    ),
    burn: text(
      'Sur les brûlées, brûlez la carte suivante : ce tour garde ainsi une vraie brûlée.',
      'On the burn spot, burn the next card, so that the street still gets one real burn.',
    ),
    seat: text(
      'Dans la main d’un joueur : cette main n’a plus qu’une carte ; le floor décide.',
      'In a player’s hand: that hand now holds one card; the floor decides.',
    ),
  }),
  REMOVE_FROM_DECK: text(
    'Avant le prochain mélange, retirez-la du jeu.',
    'Before the next shuffle, take it out of the deck.',
  ),

  // CALL_FLOOR (its CALL_FLOOR step above)
  STOP_PLAY: text('Arrêtez le jeu.', 'Stop play.'),
  SHOW_FACTS: text(
    'Montrez au floor ce que la table a relevé (écran).',
    'Show the floor what the sensors saw (display).',
  ),
  ENTER_DECISION: text('Saisissez la décision du floor.', 'Enter the floor’s decision.'),

  // Prompt ALL_IN_SHOWDOWN
  HANDS_FACE_UP: text(
    'Tapis et plus d’enchères possibles : faites retourner toutes les mains, face visible.',
    'All-in and no more betting: have every hand turned face up.',
  ),
  RUN_OUT_BOARD: text(
    'Distribuez la suite du board, avec ses brûlées.',
    'Deal the rest of the board, with its burns.',
  ),

  // The showdown's prompts (RULINGS.md "Pots and showdown"): the seats and amounts are the prompt's fields.
  RETURN_UNCALLED: text(
    'Rendez à son propriétaire la part de la dernière mise que personne n’a suivie.',
    'Give the part of the last bet that no one called back to its owner.',
  ),
  BUILD_SIDE_POTS: text(
    'Séparez chaque pot annexe avant de brûler pour la rue suivante.',
    'Split off each side pot before burning for the next street.',
  ),
  SHOW_IN_ORDER: text(
    'Abattage : les mains se montrent dans l’ordre indiqué.',
    'Showdown: hands are shown in the order listed.',
  ),
  SPLIT_BY_RANKING: text(
    'Montant d’un tapis inconnu : partagez les pots selon le classement des mains.',
    'An all-in amount is unknown: split the pots by the ranking of the hands.',
  ),

  // RETRIEVE_WINNING_HAND
  RETRIEVE_WINNING_HAND: text(
    'Reprenez de la défausse les deux cartes de la main gagnante montrée et replacez-les devant le gagnant.',
    'Take the tabled winning hand’s two cards back from the muck and put them before the winner.',
  ),
  AWARD_AS_SHOWN: text(
    'Attribuez le pot comme la main a été montrée.',
    'Award the pot as the hand was shown.',
  ),

  // Prompt NEXT_HAND
  PLACE_BUTTON: ({ seat }: { seat: number }) =>
    text(`Bouton au siège ${seat}.`, `The button on seat ${seat}.`),
  POST_BLINDS: ({
    sb,
    bb,
    blinds: [small, big],
  }: {
    sb: number | null;
    bb: number;
    blinds: readonly [number, number];
  }) =>
    sb === null
      ? text(
          `Pas de petite blinde ; grosse blinde (${big}) : siège ${bb}.`,
          `No small blind; big blind (${big}): seat ${bb}.`,
        )
      : text(
          `Petite blinde (${small}) : siège ${sb} ; grosse blinde (${big}) : siège ${bb}.`,
          `Small blind (${small}): seat ${sb}; big blind (${big}): seat ${bb}.`,
        ),
  POST_ANTES: ({ ante }: { ante: number }) =>
    text(`Ante de ${ante} pour chaque joueur.`, `An ante of ${ante} from every player.`),
  NEWCOMER_POSTS: ({ seat, amount }: { seat: number; amount: number }) =>
    text(
      `Siège ${seat}, nouveau joueur : met ${amount} au pot.`,
      `Seat ${seat}, a new player: puts ${amount} in.`,
    ),
} satisfies Readonly<Record<string, Entry>>;

export type StepCode = keyof typeof STEP_TEXTS;

/**
 * What a procedure expects of the cards and the sensors can see contradicted (PROCEDURE_NOT_FOLLOWED's
 * `expected`), keyed by the code of the step that asks for it: the reason's clause after
 * "the sensors contradict the procedure:".
 */
export const EXPECTED_TEXTS = {
  /**
   * A dead card (exposed and set apart, boxed and set aside, a dead hand's) stays out of play: it went to
   * the board.
   */
  SET_APART: text('la carte morte devait rester hors du jeu', 'the dead card was to stay out of play'),
  /** REPLACE_AT_END: the dead card is the flop burn; another card was burned. */
  BURN_FACE_DOWN: text(
    'la carte morte devait être la brûlée du flop',
    'the dead card was to be the flop burn card',
  ),
} as const satisfies Readonly<Record<ExpectedStep, Text>> & Readonly<Partial<Record<StepCode, Text>>>;

export const EXPECTED_STEPS = Object.keys(EXPECTED_TEXTS) as readonly ExpectedStep[];

/** What a code's text is worded from: nothing for a fixed text, else its entry's one parameter. */
export type StepParams<C extends StepCode> = (typeof STEP_TEXTS)[C] extends (params: infer P) => Text
  ? [params: P]
  : [];

/** A step's text in both languages, from the catalogue. */
export function stepText<C extends StepCode>(code: C, ...params: StepParams<C>): Text {
  const entry: Entry = STEP_TEXTS[code];
  return typeof entry === 'function' ? entry((params as readonly unknown[])[0] as never) : entry;
}
