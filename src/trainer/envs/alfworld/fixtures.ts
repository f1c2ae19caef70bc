/** The scripted games the ALFWorld tests and the fixture run use (`test-helpers.ts` serves them). */
import type { FakeGame } from './test-helpers.js';

export const FIXTURE_GAMES: Record<string, FakeGame> = {
  'json_2.1.1/train/pick_and_place_simple-Apple-None-Fridge-1/trial_1/game.tw-pddl': {
    goal: 'put some apple in fridge',
    object: 'apple 1',
    target: 'fridge 1',
    places: { 'countertop 1': ['apple 1', 'knife 1'], 'fridge 1': [], 'sinkbasin 1': [] },
    closed: ['fridge 1'],
  },
  'json_2.1.1/train/pick_and_place_simple-Book-None-Shelf-2/trial_1/game.tw-pddl': {
    goal: 'put a book on shelf',
    object: 'book 1',
    target: 'shelf 1',
    places: { 'desk 1': ['pen 1'], 'drawer 1': ['book 1'], 'shelf 1': ['vase 1'] },
    closed: ['drawer 1'],
  },
  'json_2.1.1/valid_seen/pick_and_place_simple-Mug-None-Cabinet-3/trial_1/game.tw-pddl': {
    goal: 'put a mug in cabinet',
    object: 'mug 1',
    target: 'cabinet 1',
    places: { 'coffeemachine 1': ['mug 1'], 'cabinet 1': [], 'table 1': ['bread 1'] },
    closed: ['cabinet 1'],
  },
  'json_2.1.1/valid_unseen/pick_and_place_simple-Soap-None-Bathtub-4/trial_1/game.tw-pddl': {
    goal: 'put some soapbar in bathtubbasin',
    object: 'soapbar 1',
    target: 'bathtubbasin 1',
    places: { 'toilet 1': ['soapbar 1'], 'bathtubbasin 1': [], 'cabinet 1': [] },
  },
};
