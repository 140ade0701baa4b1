// The analysis board's move tree: no rule here. A node is `{move, after, children}`: the move
// (N1 text, as the server sent it), the position it leads to (N2 text, from the server) and the
// moves that follow, the first one being the main continuation and the others its variations.
// A place in the tree is a path: the child index taken at each level from the root.

/** A tree from a start position and a main line: `moves` N1 texts, `positions` the N2 text
 * after each (as a GameView gives them, without the first). */
export function newTree(start, moves = [], positions = []) {
  const root = { move: null, after: start, children: [] };
  let node = root;
  for (let i = 0; i < moves.length && i < positions.length; i++) {
    const child = { move: moves[i], after: positions[i], children: [] };
    node.children.push(child);
    node = child;
  }
  return root;
}

/** The node at `path`, or null. */
export function nodeAt(root, path) {
  let node = root;
  for (const i of path) {
    node = node.children[i];
    if (!node) return null;
  }
  return node;
}

/** The path of the main line's node at `ply` (as far as the main line goes). */
export function mainPath(root, ply) {
  const path = [];
  let node = root;
  while (path.length < ply && node.children.length) {
    path.push(0);
    node = node.children[0];
  }
  return path;
}

/** Plays `move` (leading to `after`) at `path`: the existing child with that move, or a new
 * one (a new variation when the node has a continuation already). Returns the new path. */
export function play(root, path, move, after) {
  const node = nodeAt(root, path);
  if (!node) return path;
  let i = node.children.findIndex((c) => c.move === move);
  if (i < 0) {
    node.children.push({ move, after, children: [] });
    i = node.children.length - 1;
  }
  return [...path, i];
}

/** Makes the variation that `path` is in the main continuation at its branch point (one level
 * up, as lichess's "promote variation"). Returns the path of the same node afterwards. */
export function promote(root, path) {
  for (let k = path.length - 1; k >= 0; k--) {
    if (path[k] !== 0) {
      const parent = nodeAt(root, path.slice(0, k));
      const [moved] = parent.children.splice(path[k], 1);
      parent.children.unshift(moved);
      const out = [...path];
      out[k] = 0;
      return out;
    }
  }
  return path;
}

/** Deletes the node at `path` and all that follows it. Returns the parent's path. */
export function remove(root, path) {
  if (!path.length) return path;
  const parent = nodeAt(root, path.slice(0, -1));
  if (parent) parent.children.splice(path[path.length - 1], 1);
  return path.slice(0, -1);
}

/** The moves from the root to `path` (N1 texts). */
export function movesTo(root, path) {
  const out = [];
  let node = root;
  for (const i of path) {
    node = node.children[i];
    out.push(node.move);
  }
  return out;
}

/** The path one move on (the main continuation), back, to the start, to the end of the line. */
export function step(root, path, where) {
  if (where === 'back') return path.slice(0, -1);
  if (where === 'first') return [];
  const out = [...path];
  let node = nodeAt(root, path);
  do {
    if (!node || !node.children.length) break;
    out.push(0);
    node = node.children[0];
  } while (where === 'last');
  return out;
}

/** The tree as `POST /api/position/record` takes it: the main line from `node`, each move with
 * the variations that replace it. */
export function recordMoves(node) {
  const out = [];
  let at = node;
  while (at.children.length) {
    const [main, ...others] = at.children;
    out.push({
      move: main.move,
      variations: others.map((v) => [{ move: v.move, variations: [] }, ...recordMoves(v)]),
    });
    at = main;
  }
  return out;
}

/**
 * The tree as rows of text for display: a list of items `{path, move, number, depth}` in reading
 * order with `{open: depth}` / `{close: depth}` around each variation. `number` is the move
 * number label (`12.` or `12…`) when it should be shown, from the ply and the side to move at
 * the root (`whiteFirst`).
 */
export function layout(root, startPly = 0) {
  const items = [];
  const label = (ply, force) => {
    const n = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) return `${n}.`;
    return force ? `${n}…` : null;
  };
  const line = (node, path, ply, depth, force) => {
    let at = node;
    let p = path;
    let k = ply;
    let f = force;
    while (at.children.length) {
      const [main, ...others] = at.children;
      items.push({ path: [...p, 0], move: main.move, number: label(k, f), depth });
      others.forEach((v, j) => {
        items.push({ open: depth + 1 });
        items.push({ path: [...p, j + 1], move: v.move, number: label(k, true), depth: depth + 1 });
        line(v, [...p, j + 1], k + 1, depth + 1, false);
        items.push({ close: depth + 1 });
      });
      f = others.length > 0;
      at = main;
      p = [...p, 0];
      k += 1;
    }
  };
  line(root, [], startPly, 0, true);
  return items;
}

/** Whether two paths are the same. */
export function samePath(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
