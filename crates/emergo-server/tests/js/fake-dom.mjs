// A few DOM elements for node tests of the board component: attributes, classes, data-*,
// children, listeners (with an AbortSignal) and the simple selectors the board uses
// (`.a`, `.a[b='c']`). Not a browser: no layout, no styles.

class FakeElement {
  constructor(tag) {
    this.tagName = tag;
    this.attrs = new Map();
    this.children = [];
    this.parent = null;
    this.listeners = [];
    this.text = '';
    const el = this;
    this.classList = {
      add: (...cs) => el.setAttribute('class', [...new Set([...el.classes(), ...cs])].join(' ')),
      remove: (...cs) => el.setAttribute('class', el.classes().filter((c) => !cs.includes(c)).join(' ')),
      contains: (c) => el.classes().includes(c),
      toggle: (c, on) => {
        const want = on === undefined ? !el.classes().includes(c) : !!on;
        if (want) el.classList.add(c);
        else el.classList.remove(c);
        return want;
      },
    };
    this.dataset = new Proxy({}, {
      get: (_, k) => el.getAttribute(`data-${String(k).replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`) ?? undefined,
      set: (_, k, v) => {
        el.setAttribute(`data-${String(k).replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`, v);
        return true;
      },
    });
  }

  classes() {
    return (this.attrs.get('class') || '').split(/\s+/).filter(Boolean);
  }

  setAttribute(k, v) {
    this.attrs.set(k, String(v));
  }

  getAttribute(k) {
    return this.attrs.has(k) ? this.attrs.get(k) : null;
  }

  appendChild(kid) {
    kid.parent = this;
    this.children.push(kid);
    return kid;
  }

  replaceChildren(...kids) {
    this.children = [];
    for (const k of kids) this.appendChild(k);
  }

  get firstChild() {
    return this.children[0] || null;
  }

  get lastChild() {
    return this.children[this.children.length - 1] || null;
  }

  set textContent(v) {
    this.text = String(v);
  }

  get textContent() {
    return this.text;
  }

  matches(sel) {
    const m = sel.match(/^\.([\w-]+)((?:\[[\w-]+='[^']*'\])*)$/);
    if (!m) throw new Error(`fake-dom: selector ${sel}`);
    if (!this.classes().includes(m[1])) return false;
    return [...m[2].matchAll(/\[([\w-]+)='([^']*)'\]/g)].every(([, k, v]) => this.getAttribute(k) === v);
  }

  querySelectorAll(sel) {
    const out = [];
    const walk = (e) => {
      for (const k of e.children) {
        if (k.matches(sel)) out.push(k);
        walk(k);
      }
    };
    walk(this);
    return out;
  }

  querySelector(sel) {
    return this.querySelectorAll(sel)[0] || null;
  }

  closest(sel) {
    for (let e = this; e; e = e.parent) if (e.matches(sel)) return e;
    return null;
  }

  addEventListener(type, fn, options = {}) {
    const entry = { type, fn };
    this.listeners.push(entry);
    if (options.signal) options.signal.addEventListener('abort', () => (this.listeners = this.listeners.filter((l) => l !== entry)));
  }

  /** Sends an event object (`{type, …}`, its `target` this element unless given) to the listeners. */
  dispatch(type, fields = {}) {
    const e = { type, target: this, clientX: 0, clientY: 0, button: 0, pointerId: 1, preventDefault() {}, stopPropagation() {}, ...fields };
    for (const l of [...this.listeners]) if (l.type === type) l.fn(e);
  }

  getBoundingClientRect() {
    return { left: 0, top: 0, width: 1000, height: 1000 };
  }

  setPointerCapture() {}

  focus() {}
}

/** Puts a `document` that makes fake elements on globalThis; returns a fake `<svg>`. */
export function fakeSvg() {
  globalThis.document = {
    createElementNS: (ns, tag) => new FakeElement(tag),
    createElement: (tag) => new FakeElement(tag),
  };
  return new FakeElement('svg');
}
