import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../../src/scenario/load.js';
import { startTable, step } from '../../../src/table/machine.js';

const SCENARIOS = join(import.meta.dirname, '../../scenarios');

/** The board region's state after each event of a corpus file, as [event, state] at each change. */
function boardModes(file: string): [number, string][] {
  const path = join(SCENARIOS, file);
  const { config, events } = parseScenarioText(readFileSync(path, 'utf8'), path);
  let table = startTable(config);
  const changes: [number, string][] = [];
  let last = 'asDealt';
  for (const event of events) {
    table = step(table, event);
    const board = (table.value as { board: string }).board;
    if (board !== last) changes.push([event.seq, board]);
    last = board;
  }
  return changes;
}

describe("the chart's board region", () => {
  it('is a scramble from the ruling to the first action after it', () => {
    // The fourth flop card (#23), FLOP_SCRAMBLE, judged at the next read (#24) once its cycle is over;
    // the first action (#25) ends the scramble.
    expect(boardModes('main-event-2014/flop-four-cards-scramble.yaml')).toEqual([
      [24, 'scramble'],
      [25, 'asDealt'],
    ]);
  });

  it('takes a flop card past the third as the turn’s burn once the second burn went to the flop', () => {
    // The second burn (#20), FLOP_SECOND_BURN_TO_FLOP, judged at #21; the flop's third card (#23),
    // judged at #24, is the turn's burn.
    expect(boardModes('main-event-2014/flop-two-burns-identifiable-flop-out.yaml')).toEqual([
      [21, 'burnOnFlop'],
      [24, 'asDealt'],
    ]);
  });

  it('holds a premature street under its ruling until a player acts', () => {
    // The river out before seat 5 acted (#32), BURN_AND_REPLACE at its read (nothing its cycle holds can
    // change a premature turn or river); seat 5's check (#34) ends it, and the next card is the river.
    expect(boardModes('french-casino/premature-river-last-player.yaml')).toEqual([
      [32, 'premature'],
      [34, 'asDealt'],
    ]);
  });
});
