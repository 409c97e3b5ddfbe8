/*
 * The corpus page's driver (bench/corpus/page.ts writes it into the page, before the tags). It
 * runs the page states' steps and says when each has settled:
 * - turbine: `_satellite._monitors` count the rules triggered and those that completed, failed a
 *   condition or failed an action; a step has settled when every rule it triggered has an outcome;
 * - Offtag: a `get-var` round trip through offtag.js (the worker handles events, and the page
 *   applies their batches, in order), twice, so what the first batch started has been sent too;
 * - none (the page without tags, the cost runs' baseline): two tasks.
 * Each wait has a limit (`stepLimitMs`); a step that reaches it says so. With `auto`, the page
 * runs every step after its load and then, `tailMs` later, fetches `/__corpus/done` (the cost
 * runs, which have no DevTools to ask).
 */
(function () {
  var cfg = window.__corpusConfig;
  var m = { triggered: 0, resolved: 0, completed: [], failed: [], actionFailed: [], wake: null };
  var corpus = (window.__corpus = { monitor: m });
  var now = function () {
    return performance.now();
  };
  var task = function () {
    return new Promise(function (r) {
      setTimeout(r, 0);
    });
  };
  var limit = function (p, ms) {
    return Promise.race([
      p.then(function () {
        return false;
      }),
      new Promise(function (r) {
        setTimeout(function () {
          r(true);
        }, ms);
      }),
    ]);
  };

  if (cfg.side === 'turbine') {
    var name = function (e) {
      return e && e.rule ? e.rule.name : '?';
    };
    var outcome = function (list) {
      return function (e) {
        m.resolved++;
        if (list) list.push(name(e));
        if (m.wake) m.wake();
      };
    };
    var sat = (window._satellite = window._satellite || {});
    sat._monitors = (sat._monitors || []).concat([
      {
        ruleTriggered: function () {
          m.triggered++;
        },
        ruleCompleted: outcome(m.completed),
        ruleConditionFailed: outcome(m.failed),
        ruleActionFailed: function (e) {
          // Turbine reports a failed action and then neither completes the rule nor fails its condition.
          outcome(m.actionFailed)(e);
        },
      },
    ]);
  }

  /** Every rule turbine triggered has an outcome, twice in a row a task apart. */
  var turbineSettled = function () {
    return new Promise(function (resolve) {
      var check = function () {
        if (m.resolved < m.triggered) return void (m.wake = check);
        m.wake = null;
        var seen = m.triggered;
        task().then(function () {
          if (m.triggered === seen && m.resolved >= m.triggered) resolve();
          else check();
        });
      };
      check();
    });
  };
  var ask = function () {
    return window.offtag.ask({ type: 'get-var', name: '__corpus settle' });
  };
  var offtagSettled = function () {
    if (!window.offtag) return task();
    return ask()
      .then(task)
      .then(ask);
  };
  var settle = function () {
    var p = cfg.side === 'turbine' ? turbineSettled() : cfg.side === 'offtag' ? offtagSettled() : task().then(task);
    return limit(p, cfg.stepLimitMs);
  };
  var loaded = function () {
    return new Promise(function (r) {
      if (document.readyState === 'complete') r();
      else addEventListener('load', function () {
        r();
      });
    });
  };
  var poll = function (cond, ms) {
    var t0 = now();
    return new Promise(function (r) {
      (function again() {
        if (cond()) return r(false);
        if (now() - t0 > ms) return r(true);
        setTimeout(again, 20);
      })();
    });
  };

  /** The page has loaded, its load's rules have settled, and (Offtag) its page triggers are installed. */
  corpus.ready = function () {
    var t0 = now();
    return loaded()
      .then(task)
      .then(settle)
      .then(function (late) {
        if (cfg.side !== 'offtag' || !document.querySelector('script[src$="offtag-triggers.js"]')) return late;
        return poll(function () {
          return typeof window.offtagTriggers === 'function';
        }, cfg.stepLimitMs)
          .then(task)
          .then(settle)
          .then(function (l2) {
            return late || l2;
          });
      })
      .then(function (late) {
        return { timedOut: late, ms: now() - t0 };
      });
  };

  /** Navigation a step's click or submit would start is cancelled, after every listener of the page has seen the event. */
  var keepPage = function (ev) {
    ev.preventDefault();
  };

  corpus.step = function (i) {
    var s = cfg.steps[i];
    var t0 = now();
    var matched = true;
    var error;
    try {
      if (s.kind === 'track') {
        if (window._satellite && typeof window._satellite.track === 'function') window._satellite.track(s.id, s.detail);
      } else {
        var el = s.target === 'document' ? document : document.querySelector('[data-corpus="' + s.target + '"]');
        if (s.selector) {
          try {
            matched = !!el && el !== document && el.matches(s.selector);
          } catch (e) {
            matched = false;
          }
        }
        if (el) {
          addEventListener('click', keepPage);
          addEventListener('submit', keepPage);
          try {
            if (s.kind === 'custom') el.dispatchEvent(new CustomEvent(s.type, { bubbles: true, cancelable: true, detail: s.detail }));
            else el.click();
          } finally {
            removeEventListener('click', keepPage);
            removeEventListener('submit', keepPage);
          }
        }
      }
    } catch (e) {
      error = String((e && e.message) || e);
    }
    return settle().then(function (late) {
      return { matched: matched, timedOut: late, error: error, ms: now() - t0 };
    });
  };

  /** JSON of a value, whatever it is (elements, functions, cycles become descriptions); null for undefined. */
  var json = function (v) {
    if (v === undefined) return null;
    var seen = [];
    try {
      return JSON.stringify(v, function (k, x) {
        if (typeof x === 'function') return '[function]';
        if (typeof x === 'undefined') return '[undefined]';
        if (typeof x === 'bigint') return String(x);
        if (x && typeof x === 'object') {
          if (typeof Node !== 'undefined' && x instanceof Node) return '[' + x.nodeName + ']';
          if (x === window) return '[window]';
          if (seen.indexOf(x) >= 0) return '[cycle]';
          seen.push(x);
        }
        return x;
      });
    } catch (e) {
      return JSON.stringify('[unserialisable: ' + String(e && e.message) + ']');
    }
  };
  /** `_satellite.getVar(name)` for each name, synchronously, as JSON (null: undefined). */
  corpus.values = function (names) {
    return names.map(function (n) {
      try {
        return window._satellite && typeof window._satellite.getVar === 'function' ? json(window._satellite.getVar(n)) : null;
      } catch (e) {
        return JSON.stringify('[getVar threw: ' + String(e && e.message) + ']');
      }
    });
  };

  /**
   * AppMeasurement's trackers on the page (turbine's), and whether each is ready to track: a
   * tracker that is not holds its hits (waiting for the visitor's IDs, an opt-in, client hints).
   */
  corpus.trackers = function () {
    var out = [];
    var list = window.s_c_il || [];
    var optIn = window.adobe && window.adobe.optIn;
    for (var i = 0; i < list.length; i++) {
      var t = list[i];
      if (!t || typeof t.isReadyToTrack !== 'function') continue;
      var ready;
      try {
        ready = !!t.isReadyToTrack();
      } catch (e) {
        ready = false;
      }
      out.push({ account: String(t.account), ready: ready, optIn: optIn ? String(optIn.status) : null });
    }
    return out;
  };

  if (cfg.auto)
    corpus
      .ready()
      .then(function () {
        var i = 0;
        var next = function () {
          return i < cfg.steps.length ? corpus.step(i++).then(next) : null;
        };
        return next();
      })
      .then(function () {
        setTimeout(function () {
          fetch('/__corpus/done', { method: 'POST' });
        }, cfg.tailMs);
      });
})();
