// A list refreshed by every lobby event or poll is drawn again only when what it shows changed,
// so the button a person has focused or is pressing stays the same element.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { needsRedraw } from '../../assets/js/dom.mjs';

test('a list is drawn again only when its key changes, each list keeping its own', () => {
  const seeks = {};
  const challenges = {};
  assert.equal(needsRedraw(seeks, '[]'), true, 'first drawing');
  assert.equal(needsRedraw(seeks, '[]'), false, 'the same list');
  assert.equal(needsRedraw(challenges, '[]'), true, 'another list has its own key');
  assert.equal(needsRedraw(seeks, '[1]'), true, 'a seek more');
  assert.equal(needsRedraw(seeks, '[]'), true, 'back to empty is a change too');
  assert.equal(needsRedraw(seeks, '[]'), false);
});
