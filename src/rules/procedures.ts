import { STREET_OF } from './decisions.js';
import type {
  IncidentCode,
  IncidentFacts,
  PromptCode,
  RulingCode,
  Step,
  StepCheck,
  Street,
  Text,
} from './types.js';

function step(code: string, fr: string, en: string, check?: StepCheck): Step {
  return check ? { code, text: { fr, en }, check } : { code, text: { fr, en } };
}

/** First step of every `floor: true` procedure. */
const CALL_THE_FLOOR = step(
  'CALL_FLOOR',
  'Appelez le floor : la suite se fait sous son œil.',
  'Call the floor: what follows is done under the floor’s eye.',
);

const STREETS: Partial<Record<IncidentCode, Street>> = STREET_OF;

/** Board rulings come from board incidents; any other incident is read as the flop, the first street. */
function streetOf(facts: IncidentFacts): Street {
  return STREETS[facts.incident] ?? 'flop';
}

const STREET_NAME: Record<Street, Text> = {
  flop: { fr: 'le flop', en: 'the flop' },
  turn: { fr: 'le turn', en: 'the turn' },
  river: { fr: 'la river', en: 'the river' },
};

const COLLECT_CARDS = step(
  'COLLECT_CARDS',
  'Ramassez toutes les cartes : sièges, board et cartes brûlées.',
  'Collect every card: seats, board and burn pile.',
  'cards-collected',
);
const BUTTON_STAYS = step(
  'BUTTON_STAYS',
  'Le bouton ne bouge pas.',
  'The button stays where it is.',
  'button-stays',
);
const RESHUFFLE = step(
  'RESHUFFLE',
  'Mélangez le jeu au mélangeur (contrôle : 52 cartes).',
  'Shuffle the deck in the shuffler (check: 52 cards).',
  'shuffler-verified',
);
const REDEAL = step(
  'REDEAL',
  'Redonnez le coup à l’identique : même bouton, mêmes blinds.',
  'Redeal the hand exactly: same button, same blinds.',
);
const FINISH_BETTING = step(
  'FINISH_BETTING',
  'Laissez finir le tour d’enchères.',
  'Let the betting round finish.',
);
const SHUFFLE_WITH_STUB = step(
  'SHUFFLE_WITH_STUB',
  'Mélangez-les avec le talon, jamais avec les cartes couchées ou flashées.',
  'Shuffle them with the stub, never with folded or flashed cards.',
);
const PLAY_ON = step('PLAY_ON', 'Les autres joueurs continuent le coup.', 'The others play on.');

const FIX_DECK: Partial<Record<IncidentCode, Step>> = {
  DECK_COUNT: step(
    'FIX_DECK',
    'Complétez le jeu ou retirez les cartes en trop, ou prenez l’autre jeu.',
    'Complete the deck or remove the extra cards, or bring the other deck.',
  ),
  DECK_FACE_UP: step(
    'FIX_DECK',
    'Retournez la carte face visible, ou prenez l’autre jeu.',
    'Turn the face-up card over, or bring the other deck.',
  ),
  DECK_UNKNOWN_CARD: step(
    'FIX_DECK',
    'Retirez la carte étrangère, ou prenez l’autre jeu.',
    'Remove the foreign card, or bring the other deck.',
  ),
};

function moveButton(facts: IncidentFacts): Step[] {
  const steps = [
    step(
      'MOVE_BUTTON',
      'Placez le bouton sur le siège indiqué, avant la première carte.',
      'Move the button to the seat shown, before the first card.',
      'puck-moved',
    ),
  ];
  if (facts.incident !== 'BUTTON_MISPLACED') return steps;
  if (facts.headsUp) {
    steps.push(
      step(
        'HEADS_UP_DEAL',
        'Tête-à-tête : le bouton est petite blind ; donnez la première carte à la grosse blind.',
        'Heads-up: the button posts the small blind; deal the first card to the big blind.',
      ),
    );
  } else if (facts.deadButton) {
    steps.push(
      step(
        'DEAD_BUTTON',
        'Bouton mort : il peut rester sur un siège vide.',
        'Dead button: it may sit on an empty seat.',
      ),
    );
  }
  return steps;
}

function giveReplacement(facts: IncidentFacts): Step {
  const toButton = (facts.incident === 'EXPOSED_CARD' || facts.incident === 'FLASHED_CARD') && facts.toButton;
  const twoInARow = toButton
    ? { fr: ' Le bouton reçoit ainsi deux cartes de suite.', en: ' The button thus gets two cards in a row.' }
    : { fr: '', en: '' };
  return step(
    'GIVE_REPLACEMENT',
    `Donnez ensuite au siège une carte de plus : celle qui devait être la première brûlée.${twoInARow.fr}`,
    `Then give the seat one more card: the one that would have been the first burn.${twoInARow.en}`,
    'seat-has-two',
  );
}

function firstToBurn(facts: IncidentFacts): Step[] {
  const street = streetOf(facts);
  if (street === 'flop') {
    return [
      step(
        'FIRST_TO_BURN',
        'La première carte du flop devient la carte brûlée : posez-la avec les brûlées.',
        'The first flop card becomes the burn card: move it to the burn pile.',
        'card-to-burn',
      ),
      step(
        'COMPLETE_STREET',
        'Donnez la carte suivante comme troisième carte du flop.',
        'Deal the next card as the third flop card.',
      ),
    ];
  }
  return [
    step(
      'FIRST_TO_BURN',
      `La carte donnée comme ${street} devient la carte brûlée : posez-la avec les brûlées.`,
      `The card dealt as ${STREET_NAME[street].en} becomes the burn card: move it to the burn pile.`,
      'card-to-burn',
    ),
    step(
      'COMPLETE_STREET',
      `Donnez la carte suivante comme ${street}.`,
      `Deal the next card as ${STREET_NAME[street].en}.`,
    ),
  ];
}

function flopScramble(facts: IncidentFacts): Step[] {
  switch (facts.incident) {
    case 'FLOP_TWO_BURNS':
      return [
        CALL_THE_FLOOR,
        step(
          'MIX_FACE_DOWN',
          'Mélangez face cachée les deux cartes brûlées, avec les cartes du flop si elles sont déjà sorties.',
          'Mix the two burn cards face down, with the flop cards if they are already out.',
        ),
        step(
          'DRAW_BURN_AND_FLOP',
          'Tirez-en la carte brûlée, puis le flop, complété par le talon ; une carte en trop devient la brûlée du turn.',
          'Draw the burn card from them, then the flop, completed from the stub; a card left over is the turn burn card.',
          'card-to-burn',
        ),
      ];
    case 'FLOP_FOUR_CARDS':
      return [
        CALL_THE_FLOOR,
        step(
          'MIX_FACE_DOWN',
          'Mélangez face cachée les quatre cartes du flop ; la carte brûlée reste.',
          'Mix the four flop cards face down; the burn card stays.',
        ),
        step(
          'DRAW_BURN_AND_FLOP',
          'Tirez-en un nouveau flop, puis la carte brûlée du turn.',
          'Draw a new flop from them, then the turn burn card.',
          'card-to-burn',
        ),
      ];
    default:
      return [
        CALL_THE_FLOOR,
        step(
          'MIX_FACE_DOWN',
          'Mélangez face cachée les trois cartes du flop.',
          'Mix the three flop cards face down.',
        ),
        step(
          'DRAW_BURN_AND_FLOP',
          'Tirez-en la carte brûlée ; les deux autres restent au flop.',
          'Draw the burn card from them; the other two stay on the flop.',
          'card-to-burn',
        ),
        step(
          'COMPLETE_STREET',
          'Donnez la carte suivante comme troisième carte du flop.',
          'Deal the next card as the third flop card.',
        ),
      ];
  }
}

function prematureReshuffle(facts: IncidentFacts, withBurn: boolean): Step[] {
  const street = streetOf(facts);
  const name = STREET_NAME[street];
  const cardsOut = street === 'flop' ? { fr: 'les cartes du flop sorties', en: 'the flop cards out' } : name;
  return [
    CALL_THE_FLOOR,
    withBurn
      ? step(
          'TAKE_BACK',
          `Reprenez toutes les cartes sorties pour ${name.fr}, carte brûlée comprise.`,
          `Take back every card out for ${name.en}, burn card included.`,
        )
      : step(
          'TAKE_BACK',
          `Reprenez ${cardsOut.fr} ; la carte brûlée reste.`,
          `Take back ${cardsOut.en}; the burn card stays.`,
        ),
    FINISH_BETTING,
    SHUFFLE_WITH_STUB,
    withBurn
      ? step(
          'REDEAL_STREET',
          `Brûlez une carte et donnez à nouveau ${name.fr}.`,
          `Burn a card and deal ${name.en} again.`,
          'card-to-burn',
        )
      : step(
          'REDEAL_STREET',
          `Donnez à nouveau ${name.fr} sans brûler.`,
          `Deal ${name.en} again without burning.`,
        ),
  ];
}

function burnAndReplace(facts: IncidentFacts): Step[] {
  const river = streetOf(facts) === 'river';
  const steps = [
    step('BURN_SEEN_CARD', 'Brûlez la carte vue.', 'Burn the seen card.', 'card-to-burn'),
    step(
      'PLAYER_ACTS',
      'Le joueur qui n’avait pas parlé se prononce maintenant.',
      'The player who had not acted acts now.',
    ),
    river
      ? step(
          'REPLACE_SEEN_CARD',
          'Une fois les enchères finies, remplacez-la par la carte suivante du talon.',
          'Once betting is over, replace it with the next card of the stub.',
        )
      : step(
          'REPLACE_SEEN_CARD',
          'Une fois les enchères finies, remplacez-la par la 3e carte du talon.',
          'Once betting is over, replace it with the 3rd card of the stub.',
        ),
  ];
  if (!river) return steps;
  return [
    ...steps,
    step(
      'STUB_MIXED',
      'Si le talon a été mélangé avec des cartes couchées : mélangez-y la carte vue, brûlez une carte et tirez une nouvelle river.',
      'If the stub was mixed with folded cards: shuffle the seen card in, burn a card and deal a new river.',
    ),
  ];
}

function continuePlay(facts: IncidentFacts): Step[] {
  return [
    facts.incident === 'BURN_EXPOSED'
      ? step(
          'CONTINUE',
          'La carte brûlée reste brûlée : le coup continue.',
          'The burn card stays burned: play on.',
        )
      : step('CONTINUE', 'Rien à corriger : le coup continue.', 'Nothing to correct: play on.'),
  ];
}

const PROCEDURES: Record<RulingCode, (facts: IncidentFacts) => Step[]> = {
  MISDEAL: () => [
    step('STOP_DEAL', 'Maldonne : arrêtez la donne.', 'Misdeal: stop dealing.'),
    COLLECT_CARDS,
    step(
      'RETURN_BETS',
      'Rendez blinds, antes et mises à leurs propriétaires.',
      'Return blinds, antes and bets to their owners.',
      'bets-returned',
    ),
    BUTTON_STAYS,
    RESHUFFLE,
    REDEAL,
  ],
  HAND_VOID: () => [
    step('STOP_DEAL', 'Coup annulé : arrêtez le jeu.', 'Hand void: stop play.'),
    COLLECT_CARDS,
    step(
      'RETURN_BETS',
      'Rendez blinds, antes et toutes les mises de ce coup ; les coups précédents restent acquis.',
      'Return blinds, antes and every bet of this hand; earlier hands stand.',
      'bets-returned',
    ),
    BUTTON_STAYS,
    step(
      'INSPECT_DECK',
      'Sortez le jeu de la table : faites-le contrôler ou remplacer.',
      'Take the deck off the table: have it inspected or replaced.',
    ),
    RESHUFFLE,
    REDEAL,
  ],
  DECK_REJECTED: (facts) => [
    step('DO_NOT_DEAL', 'Ne distribuez pas ce jeu.', 'Do not deal this deck.'),
    FIX_DECK[facts.incident] ??
      step('FIX_DECK', 'Réparez le jeu ou prenez l’autre jeu.', 'Fix the deck or bring the other deck.'),
    step(
      'RESHUFFLE',
      'Repassez le jeu au mélangeur (contrôle : 52 cartes).',
      'Run the deck through the shuffler again (check: 52 cards).',
      'shuffler-verified',
    ),
  ],
  MOVE_BUTTON: moveButton,
  CARD_LIVE: () => [
    step('CARD_STAYS', 'La carte reste en jeu.', 'The card stays in play.'),
    step('ANNOUNCE_CARD', 'Annoncez-la à toute la table.', 'Announce it to the whole table.'),
    step(
      'FLOOR_MAY_PENALISE',
      'Le floor pourra sanctionner le joueur après le coup.',
      'The floor may penalise the player after the hand.',
    ),
  ],
  REPLACE_AT_END: (facts) => [
    step('SET_APART', 'Carte morte : posez-la à part, face visible.', 'Dead card: set it apart, face up.'),
    step('FINISH_DEAL', 'Terminez la donne normalement.', 'Finish the deal normally.'),
    giveReplacement(facts),
    step(
      'ON_TOP_OF_STUB',
      'Posez la carte morte face visible sur le talon : c’est la brûlée du flop.',
      'Put the dead card face up on top of the stub: it is the flop burn card.',
    ),
    step(
      'BURN_FACE_DOWN',
      'Au flop, brûlez-la et posez-la face cachée avec les brûlées.',
      'At the flop, burn it and lay it face down on the burn pile.',
      'card-to-burn',
    ),
  ],
  BOXED_SET_ASIDE: () => [
    step(
      'SHOW_BOXED',
      'Montrez la carte retournée dans le paquet à tous les joueurs.',
      'Show the boxed card to all players.',
    ),
    step('SET_ASIDE', 'Mettez-la de côté : feuille morte pour ce coup.', 'Set it aside: dead for this hand.'),
    step(
      'CARRY_ON',
      'Continuez comme si elle n’était pas dans le paquet : la carte suivante va à sa place.',
      'Carry on as if it were not in the deck: the next card goes in its place.',
    ),
  ],
  CONTINUE: continuePlay,
  GIVE_TOP_CARD: () => [
    step(
      'GIVE_TOP_CARD',
      'Donnez au bouton la carte du dessus du talon : c’est la sienne.',
      'Give the button the top card of the stub: it is the card meant for it.',
      'seat-has-two',
    ),
  ],
  HAND_DEAD: () => [
    step(
      'HAND_DEAD',
      'La main de ce siège est morte : ses cartes vont à la défausse.',
      'This seat’s hand is dead: its cards go to the muck.',
      'card-to-muck',
    ),
    PLAY_ON,
  ],
  FIRST_TO_BURN: firstToBurn,
  FLOP_SECOND_BURN_TO_FLOP: () => [
    step(
      'SECOND_BURN_TO_FLOP',
      'La deuxième carte brûlée devient la première carte du flop.',
      'The second burn card becomes the first flop card.',
    ),
    step(
      'COMPLETE_STREET',
      'Complétez le flop avec la ou les cartes suivantes.',
      'Complete the flop with the next card(s).',
    ),
    step(
      'LAST_FLOP_CARD_TO_BURN',
      'Si le flop était déjà sorti, sa dernière carte devient la carte brûlée du turn.',
      'If the flop was already out, its last card becomes the turn burn card.',
    ),
  ],
  FLOP_FOURTH_TO_BURN: () => [
    step(
      'FOURTH_TO_BURN',
      'La quatrième carte du flop, la dernière sortie, devient la carte brûlée du turn.',
      'The fourth flop card, the last one out, becomes the turn burn card.',
      'card-to-burn',
    ),
    step(
      'TURN_WITHOUT_BURN',
      'Au turn, donnez la carte suivante sans brûler.',
      'At the turn, deal the next card without burning.',
    ),
  ],
  FLOP_SCRAMBLE: flopScramble,
  PREMATURE_RESHUFFLE_NO_BURN: (facts) => prematureReshuffle(facts, false),
  PREMATURE_RESHUFFLE_WITH_BURN: (facts) => prematureReshuffle(facts, true),
  TURN_SET_ASIDE: () => [
    CALL_THE_FLOOR,
    step('SET_TURN_ASIDE', 'Mettez de côté le turn prématuré.', 'Set the premature turn aside.'),
    step('FINISH_BETTING', 'Laissez finir les enchères du flop.', 'Let the flop betting finish.'),
    step(
      'BURN_AND_DEAL_TURN',
      'Brûlez une nouvelle carte et donnez la suivante comme turn.',
      'Burn a new card and deal the next one as the turn.',
      'card-to-burn',
    ),
    step(
      'SHUFFLE_SET_ASIDE',
      'Avant la river, mélangez la carte mise de côté avec le talon.',
      'Before the river, shuffle the set-aside card into the stub.',
    ),
    step('RIVER_WITHOUT_BURN', 'Donnez la river sans brûler.', 'Deal the river without burning.'),
  ],
  BURN_AND_REPLACE: burnAndReplace,
  SKIPPED_PLAYER_FOLDS: () => [
    step(
      'SKIPPED_PLAYER_FOLDS',
      'Le joueur qui n’avait pas parlé ne peut plus parler : il passe, ses cartes vont à la défausse.',
      'The player who had not acted loses the right to act: the hand is folded.',
      'card-to-muck',
    ),
    step(
      'PLAY_ON',
      'Le coup continue sans rétablir le board.',
      'Play continues without restoring the board.',
    ),
  ],
  REDEAL_BOARD: () => [
    step(
      'REMOVE_WRONG_DECK',
      'Retirez du board et des brûlées les cartes de l’autre jeu.',
      'Take the other deck’s cards off the board and the burn pile.',
    ),
    step('REDEAL_BOARD', 'Redonnez le board avec le bon jeu.', 'Deal the board again from the right deck.'),
  ],
  CALL_FLOOR: () => [
    step('STOP_PLAY', 'Arrêtez le jeu.', 'Stop play.'),
    step('CALL_FLOOR', 'Appelez le floor.', 'Call the floor.'),
    step(
      'SHOW_FACTS',
      'Montrez au floor ce que la table a relevé (écran).',
      'Show the floor what the sensors saw (display).',
    ),
    step('ENTER_DECISION', 'Saisissez la décision du floor.', 'Enter the floor’s decision.'),
  ],
};

/** The ordered steps of a ruling (RULINGS.md "Rulings"), worded for the facts at hand. */
export function procedure(ruling: RulingCode, facts: IncidentFacts): Step[] {
  return PROCEDURES[ruling](facts);
}

const PROMPT_STEPS: Record<Exclude<PromptCode, 'NEXT_HAND'>, Step[]> = {
  ALL_IN_SHOWDOWN: [
    step(
      'HANDS_FACE_UP',
      'Tapis et plus d’enchères possibles : faites retourner toutes les mains, face visible.',
      'All-in and no more betting: have every hand turned face up.',
    ),
    step(
      'RUN_OUT_BOARD',
      'Distribuez la suite du board, avec ses brûlées.',
      'Deal the rest of the board, with its burns.',
    ),
  ],
};

/** What the dealer does on a prompt (not an error: the hand goes on). */
export function promptProcedure(prompt: Exclude<PromptCode, 'NEXT_HAND'>): Step[] {
  return PROMPT_STEPS[prompt];
}

/** The hand `next-hand` started, as the dealer sets it up: the button, the blinds, the newcomers' posts. */
export interface HandSetUp {
  button: number;
  sb: number | null;
  bb: number;
  blinds: readonly [number, number];
  ante?: number;
  posted?: readonly number[];
}

export function nextHandProcedure(h: HandSetUp): Step[] {
  const steps = [step('PLACE_BUTTON', `Bouton au siège ${h.button}.`, `The button on seat ${h.button}.`)];
  const [sb, bb] = h.blinds;
  steps.push(
    h.sb === null
      ? step(
          'POST_BLINDS',
          `Pas de petite blinde ; grosse blinde (${bb}) : siège ${h.bb}.`,
          `No small blind; big blind (${bb}): seat ${h.bb}.`,
        )
      : step(
          'POST_BLINDS',
          `Petite blinde (${sb}) : siège ${h.sb} ; grosse blinde (${bb}) : siège ${h.bb}.`,
          `Small blind (${sb}): seat ${h.sb}; big blind (${bb}): seat ${h.bb}.`,
        ),
  );
  if (h.ante)
    steps.push(
      step('POST_ANTES', `Ante de ${h.ante} pour chaque joueur.`, `An ante of ${h.ante} from every player.`),
    );
  for (const seat of h.posted ?? []) {
    steps.push(
      step(
        'NEWCOMER_POSTS',
        `Siège ${seat}, nouveau joueur : met ${bb} au pot.`,
        `Seat ${seat}, a new player: puts ${bb} in.`,
      ),
    );
  }
  return steps;
}
