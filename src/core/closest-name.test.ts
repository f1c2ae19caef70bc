import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from './closest-name.js';

describe('closestName', () => {
  it('counts one edit for an insertion, a deletion, a substitution or a swap', () => {
    expect(editDistance('seed', 'seed')).toBe(0);
    expect(editDistance('sed', 'seed')).toBe(1);
    expect(editDistance('seeds', 'seed')).toBe(1);
    expect(editDistance('sead', 'seed')).toBe(1);
    expect(editDistance('esed', 'seed')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests the nearest known name, and nothing when none is near', () => {
    const known = ['edit_budget', 'seed', 'max_calls', 'max_tokens'];
    expect(closestName('edit_budjet', known)).toBe('edit_budget');
    expect(closestName('EDIT_BUDGET', known)).toBe('edit_budget');
    expect(closestName('max_call', known)).toBe('max_calls');
    expect(closestName('colour_scheme', known)).toBeUndefined();
    expect(didYouMean('sead', known)).toBe(' (did you mean "seed"?)');
    expect(didYouMean('zzzz', known)).toBe('');
  });
});
