// The charts' arithmetic: time controls to minutes, seeks to dots, a history to a path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateMinutes, seekDots, historyPath, ratingTicks } from '../../assets/js/charts.mjs';

const box = { left: 40, right: 580, top: 10, bottom: 210 };

test('a time control is estimated as B + I minutes, correspondence as none', () => {
  assert.equal(estimateMinutes('3+2'), 5);
  assert.equal(estimateMinutes('0.5+0'), 0.5);
  assert.equal(estimateMinutes('corr:3'), null);
  assert.equal(estimateMinutes('nonsense'), null);
});

test('faster seeks are further left, higher ratings higher up, correspondence at the edge', () => {
  const [fast, slow, strong, corr] = seekDots([
    { time: '1+0', rating: 1500 },
    { time: '15+10', rating: 1500 },
    { time: '1+0', rating: 1900 },
    { time: 'corr:1', rating: 1500 },
  ], box);
  assert.ok(fast.x < slow.x);
  assert.ok(strong.y < fast.y);
  assert.equal(corr.x, box.right - 10);
  for (const d of [fast, slow, strong, corr]) {
    assert.ok(d.x >= box.left && d.x <= box.right && d.y >= box.top && d.y <= box.bottom);
  }
});

test('a rating history becomes a path from left to right with round ticks', () => {
  const { d, ticks, dots } = historyPath([{ rating: 1500 }, { rating: 1662 }, { rating: 1600 }], box);
  assert.match(d, /^M40 \S+ L310 \S+ L580 \S+$/);
  assert.ok(dots[1].y < dots[0].y, 'a higher rating is drawn higher');
  assert.deepEqual(ticks.map((t) => t.value), [1400, 1500, 1600, 1700, 1800]);
  assert.deepEqual(historyPath([], box).d, '');
  assert.equal(historyPath([{ rating: 1662 }], box).dots[0].x, 310, 'a single game is drawn in the middle');
  assert.deepEqual(ratingTicks(1000, 2200).slice(0, 2), [1000, 1200]);
});
