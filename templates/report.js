// The report's only script: static (allowed by its CSP hash), it reads the findings from the
// JSON element and builds every row with textContent, so no value from the org is ever parsed as HTML.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('report-data').textContent);
  var findings = data.findings;
  // Cards rendered per group before a "Show more" button; keeps 10,000 findings quick to open and filter.
  var PAGE = 25;
  // Groups rendered per section before a "Show more" button (a repository can have thousands of files).
  var GROUP_PAGE = 20;
  var FILTER_KEYS = ['q', 'kind', 'category', 'type', 'verdict', 'reviewed'];
  var STORAGE_KEY = 'teams-migration-audit:review:' + data.organization.id;
  var EXPORT_FORMAT = 'teams-migration-audit/review-state/1';
  var FINDING_ID = /^[0-9a-f]{16}$/; // fingerprint() in src/analyze.ts

  var haystacks = findings.map(function (f) {
    return (f.identifier + '\n' + f.title + '\n' + f.location + '\n' + f.evidence).toLowerCase();
  });
  var manualTotal = findings.filter(function (f) { return f.kind === 'manual'; }).length;

  // ---- review state: one localStorage entry per organization, a map of finding id → true ----
  var storageWorks = true;
  var reviewed = loadReviewed();

  function loadReviewed() {
    try {
      var raw = window.localStorage.getItem(STORAGE_KEY);
      var parsed = raw ? JSON.parse(raw) : {};
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
    } catch (error) {
      storageWorks = false;
      return {};
    }
  }

  function saveReviewed() {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(reviewed));
    } catch (error) {
      storageWorks = false;
      say('This browser does not keep review ticks for local files: export them before closing.');
    }
  }

  function isReviewed(f) { return reviewed[f.id] === true; }

  function setReviewed(f, value) {
    if (value) reviewed[f.id] = true;
    else delete reviewed[f.id];
    saveReviewed();
    var card = cards[f.id];
    if (card) syncCard(card, f);
    updateProgress();
  }

  // ---- filters ----
  var form = document.getElementById('filters');
  var filter = readHash();

  function readHash() {
    var state = {};
    FILTER_KEYS.forEach(function (key) { state[key] = ''; });
    var hash = window.location.hash.slice(1);
    // A plain anchor (#filters, from the skip link) is not a filter and must not reset one.
    if (hash.indexOf('=') === -1) return null;
    var params = new URLSearchParams(hash);
    FILTER_KEYS.forEach(function (key) { state[key] = params.get(key) || ''; });
    return state;
  }

  function writeHash() {
    var params = new URLSearchParams();
    FILTER_KEYS.forEach(function (key) { if (filter[key]) params.set(key, filter[key]); });
    var text = params.toString();
    var url = window.location.pathname + window.location.search + (text ? '#' + text : '');
    try {
      history.replaceState(null, '', url);
    } catch (error) {
      // Some browsers refuse replaceState on file:// URLs; a hash assignment still keeps the filter.
      window.location.hash = text;
    }
  }

  function syncForm() {
    FILTER_KEYS.forEach(function (key) {
      var control = form.elements.namedItem(key);
      if (!control) return;
      if (control.tagName === 'SELECT' && filter[key] && !hasOption(control, filter[key])) {
        // A hash from another report may name a category this one lacks: show it, so nothing is hidden silently.
        var option = document.createElement('option');
        option.value = filter[key];
        option.textContent = filter[key];
        control.appendChild(option);
      }
      control.value = filter[key];
    });
  }

  function hasOption(select, value) {
    for (var i = 0; i < select.options.length; i++) if (select.options[i].value === value) return true;
    return false;
  }

  function matches(f, index, terms) {
    if (filter.kind && f.kind !== filter.kind) return false;
    if (filter.category && f.category !== filter.category) return false;
    if (filter.type && f.type !== filter.type) return false;
    if (filter.verdict && f.verdict !== filter.verdict) return false;
    if (filter.reviewed === 'yes' && !isReviewed(f)) return false;
    if (filter.reviewed === 'no' && isReviewed(f)) return false;
    for (var t = 0; t < terms.length; t++) if (haystacks[index].indexOf(terms[t]) === -1) return false;
    return true;
  }

  // ---- rendering ----
  var cards = {}; // finding id → card element, built once on first show
  var groupShown = {}; // group key → how many cards are shown
  var sectionShown = {}; // section id → how many groups are shown
  var printing = false;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render() {
    var terms = filter.q.toLowerCase().split(/\s+/).filter(Boolean);
    var total = 0;
    data.sections.forEach(function (section) {
      var container = document.getElementById('groups-' + section.id);
      if (!container) return;
      var visibleGroups = [];
      var sectionTotal = 0;
      section.groups.forEach(function (group) {
        var items = group.items.filter(function (i) { return matches(findings[i], i, terms); });
        if (items.length) visibleGroups.push({ group: group, items: items });
        sectionTotal += items.length;
      });
      total += sectionTotal;
      var fragment = document.createDocumentFragment();
      var groupLimit = printing ? Infinity : sectionShown[section.id] || GROUP_PAGE;
      visibleGroups.slice(0, groupLimit).forEach(function (entry) {
        fragment.appendChild(renderGroup(section, entry.group, entry.items));
      });
      if (visibleGroups.length > groupLimit) {
        var more = el('button', 'more', 'Show more (' + (visibleGroups.length - groupLimit) + ' more groups)');
        more.type = 'button';
        more.addEventListener('click', function () {
          sectionShown[section.id] = groupLimit + GROUP_PAGE;
          render();
        });
        fragment.appendChild(more);
      }
      container.replaceChildren(fragment);
      var all = section.groups.reduce(function (sum, g) { return sum + g.items.length; }, 0);
      var count = document.getElementById('count-' + section.id);
      if (count) count.textContent = sectionTotal === all ? '(' + all + ')' : '(' + sectionTotal + ' of ' + all + ')';
      var empty = document.getElementById('empty-' + section.id);
      if (empty) empty.hidden = sectionTotal > 0;
    });
    document.getElementById('match-count').textContent =
      total === findings.length ? findings.length + ' findings' : total + ' of ' + findings.length + ' findings match';
  }

  function renderGroup(section, group, items) {
    var wrap = el('section', 'group');
    var headingId = 'g-' + section.id + '-' + groupIndex(section, group);
    wrap.setAttribute('aria-labelledby', headingId);
    var h3 = el('h3');
    h3.id = headingId;
    if (section.id === 'repository') h3.appendChild(el('code', 'path', group.heading));
    else h3.appendChild(document.createTextNode(group.heading));
    h3.appendChild(document.createTextNode(' '));
    h3.appendChild(el('span', 'count', items.length === group.items.length ? '(' + items.length + ')' : '(' + items.length + ' of ' + group.items.length + ')'));
    wrap.appendChild(h3);
    if (group.why) wrap.appendChild(el('p', 'why', group.why));
    if (group.fix) {
      var fix = el('p', 'fix');
      fix.appendChild(el('strong', '', 'What to do: '));
      fix.appendChild(document.createTextNode(group.fix));
      wrap.appendChild(fix);
    }
    var limit = printing ? Infinity : groupShown[group.key] || PAGE;
    items.slice(0, limit).forEach(function (i) { wrap.appendChild(card(findings[i], section.id)); });
    if (items.length > limit) {
      var more = el('button', 'more', 'Show ' + Math.min(PAGE, items.length - limit) + ' more of ' + (items.length - limit) + ' remaining');
      more.type = 'button';
      more.addEventListener('click', function () {
        groupShown[group.key] = limit + PAGE;
        render();
      });
      wrap.appendChild(more);
    }
    return wrap;
  }

  var groupIndexes = {};
  function groupIndex(section, group) {
    var key = section.id + '\u0000' + group.key;
    if (!(key in groupIndexes)) groupIndexes[key] = Object.keys(groupIndexes).length;
    return groupIndexes[key];
  }

  function card(f, sectionId) {
    var existing = cards[f.id];
    if (existing) return existing;
    var article = el('article', 'finding verdict-' + f.verdict);
    article.id = 'f-' + f.id;
    article.dataset.id = f.id;

    var head = el('div', 'finding-head');
    var h4 = el('h4');
    h4.id = 'h-' + f.id;
    h4.appendChild(el('span', 'type', f.type));
    h4.appendChild(document.createTextNode(' '));
    h4.appendChild(el('code', 'identifier', f.identifier));
    if (f.title) {
      h4.appendChild(document.createTextNode(' '));
      h4.appendChild(el('span', 'title', f.title));
    }
    head.appendChild(h4);
    var badges = el('div', 'badges');
    if (sectionId === 'repository') badges.appendChild(el('span', 'badge', f.categoryTitle));
    if (f.verdict !== 'none') badges.appendChild(el('span', 'badge verdict verdict-' + f.verdict, f.verdictLabel));
    if (f.accepted) badges.appendChild(el('span', 'badge accepted', 'Accepted in baseline'));
    head.appendChild(badges);

    var label = el('label', 'review-box');
    var box = el('input');
    box.type = 'checkbox';
    box.className = 'review-check';
    box.addEventListener('change', function () { setReviewed(f, box.checked); });
    label.appendChild(box);
    label.appendChild(document.createTextNode(' Reviewed'));
    // The visible text is the same on every card; the hidden part says which item the box is for.
    label.appendChild(el('span', 'visually-hidden', ': ' + f.type + ' ' + f.identifier + ', ' + f.location));
    head.appendChild(label);

    var toggle = el('button', 'toggle');
    toggle.type = 'button';
    toggle.setAttribute('aria-controls', 'b-' + f.id);
    toggle.addEventListener('click', function () {
      article.classList.toggle('open');
      syncCard(article, f);
    });
    head.appendChild(toggle);
    article.appendChild(head);
    // The location stays visible when a reviewed card folds, so folded cards remain tellable apart.
    var where = el('p', 'where');
    where.appendChild(el('span', 'visually-hidden', 'Location: '));
    where.appendChild(el('code', 'location', f.location));
    article.appendChild(where);

    var body = el('dl', 'finding-body');
    body.id = 'b-' + f.id;
    addRow(body, 'Why', document.createTextNode(f.reason));
    addRow(body, 'Suggestion', document.createTextNode(f.suggestion));
    // With a computed new value the evidence is shown once, as the "before" of the change.
    if (!f.rewrite) addRow(body, 'Evidence', codeBlock(f.evidence));
    else {
      var change = el('div', 'change');
      var before = el('div', 'before');
      before.appendChild(el('div', 'change-label', f.beforeLabel));
      before.appendChild(codeBlock(f.evidence));
      var arrow = el('div', 'arrow', '→');
      arrow.setAttribute('aria-hidden', 'true');
      var after = el('div', 'after');
      var afterHead = el('div', 'change-label', f.afterLabel + ' ');
      var copy = el('button', 'copy', 'Copy');
      copy.type = 'button';
      copy.setAttribute('aria-label', 'Copy the new value for ' + f.identifier + ' ' + f.location);
      copy.addEventListener('click', function () { copyText(f.rewrite, copy); });
      afterHead.appendChild(copy);
      after.appendChild(afterHead);
      after.appendChild(codeBlock(f.rewrite));
      change.appendChild(before);
      change.appendChild(arrow);
      change.appendChild(after);
      addRow(body, 'Evidence', change);
    }
    if (f.fix) {
      // A file of the fix kit beside the report (analyze --fix-out); never a remote address. From
      // file:// the browser opens it in a new tab (a page's own origin only may force a download).
      var fix = el('a', 'fix-link', 'Download fix');
      fix.href = f.fix;
      fix.target = '_blank';
      fix.rel = 'noopener';
      fix.setAttribute('download', '');
      addRow(body, 'Fix', fix);
    }
    if (f.note) addRow(body, 'Note', document.createTextNode(f.note));
    if (f.accepted) addRow(body, 'Accepted', document.createTextNode(f.accepted.reason + ' (by ' + f.accepted.by + ')'));
    article.appendChild(body);

    cards[f.id] = article;
    syncCard(article, f);
    return article;
  }

  function addRow(dl, term, content) {
    dl.appendChild(el('dt', '', term));
    var dd = el('dd');
    dd.appendChild(content);
    dl.appendChild(dd);
  }

  function codeBlock(text) {
    var pre = el('pre');
    pre.appendChild(el('code', '', text));
    return pre;
  }

  // A reviewed card folds to its heading on screen (print shows everything); the button reopens it.
  function syncCard(article, f) {
    var done = isReviewed(f);
    article.classList.toggle('reviewed', done);
    if (!done) article.classList.remove('open');
    var box = article.querySelector('.review-check');
    box.checked = done;
    var toggle = article.querySelector('.toggle');
    var expanded = !done || article.classList.contains('open');
    toggle.hidden = !done;
    toggle.textContent = expanded ? 'Hide details' : 'Show details';
    toggle.setAttribute('aria-expanded', String(expanded));
  }

  function copyText(text, button) {
    function done(ok) {
      button.textContent = ok ? 'Copied' : 'Copy failed';
      say(ok ? 'Copied the new value.' : 'Could not copy; select the text and copy it by hand.');
      setTimeout(function () { button.textContent = 'Copy'; }, 1500);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(fallbackCopy(text)); });
    } else {
      done(fallbackCopy(text));
    }
  }

  // file:// pages may lack the async clipboard; a hidden textarea and execCommand still work there.
  function fallbackCopy(text) {
    var area = el('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (error) { ok = false; }
    area.remove();
    return ok;
  }

  function updateProgress() {
    var done = 0;
    for (var i = 0; i < findings.length; i++) if (findings[i].kind === 'manual' && isReviewed(findings[i])) done++;
    var bar = document.getElementById('progress');
    bar.max = Math.max(manualTotal, 1);
    bar.value = done;
    var percent = manualTotal ? Math.round((done / manualTotal) * 100) : 100;
    document.getElementById('progress-text').textContent = done + ' of ' + manualTotal + ' (' + percent + '%)';
    // The "Reviewed" filter depends on the ticks; re-filter so a ticked row leaves a "Not reviewed" view.
    if (filter.reviewed) render();
  }

  var status = document.getElementById('review-status');
  function say(text) { status.textContent = text; }

  // ---- export and import of the review state ----
  document.getElementById('export').addEventListener('click', function () {
    var ids = Object.keys(reviewed).filter(function (id) { return reviewed[id] === true; }).sort();
    var payload = { format: EXPORT_FORMAT, organization: data.organization, reviewed: ids };
    var blob = new Blob([JSON.stringify(payload, null, 2) + '\n'], { type: 'application/json' });
    var link = el('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'review-state-' + data.organization.id.replace(/[^A-Za-z0-9_-]+/g, '_') + '.json';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
    say('Exported ' + ids.length + ' reviewed item' + (ids.length === 1 ? '' : 's') + '.');
  });

  var importInput = document.getElementById('import');
  importInput.addEventListener('change', function () {
    var file = importInput.files && importInput.files[0];
    if (!file) return;
    var reader = new FileReader();
    reader.onload = function () {
      importInput.value = '';
      var parsed;
      try { parsed = JSON.parse(String(reader.result)); } catch (error) { say('Not imported: the file is not JSON.'); return; }
      if (!parsed || parsed.format !== EXPORT_FORMAT || !Array.isArray(parsed.reviewed)) {
        say('Not imported: the file is not an exported review state.');
        return;
      }
      var from = parsed.organization && parsed.organization.id;
      if (from !== data.organization.id) {
        // Only a string is shown: String() of a deeply nested array would overflow the stack.
        say('Not imported: the file is for organization ' + (typeof from === 'string' ? from : 'another one') + ', this report is for ' + data.organization.id + '.');
        return;
      }
      // Merge: an import adds ticks and never removes one, so sharing work cannot lose any.
      // Only strings of the finding-id form count: `__proto__` and friends are no id, and an own-key
      // test keeps Object.prototype's names from passing as known.
      var imported = parsed.reviewed.filter(function (id) { return typeof id === 'string' && FINDING_ID.test(id); });
      var known = Object.create(null);
      findings.forEach(function (f) { known[f.id] = true; });
      var added = 0;
      var unknown = 0;
      imported.forEach(function (id) {
        if (known[id] !== true) unknown++;
        if (!Object.prototype.hasOwnProperty.call(reviewed, id)) added++;
        reviewed[id] = true;
      });
      saveReviewed();
      Object.keys(cards).forEach(function (id) { syncCard(cards[id], { id: id }); });
      updateProgress();
      render();
      say('Imported ' + imported.length + ' reviewed items (' + added + ' new' + (unknown ? ', ' + unknown + ' not in this report' : '') + ').');
    };
    reader.onerror = function () { say('Not imported: the file could not be read.'); };
    reader.readAsText(file);
  });

  // ---- wiring ----
  function applyFromForm() {
    var changed = false;
    FILTER_KEYS.forEach(function (key) {
      var control = form.elements.namedItem(key);
      var value = control ? control.value.trim() : '';
      if (filter[key] !== value) changed = true;
      filter[key] = value;
    });
    // A select fires both input and change; render once.
    if (!changed) return;
    writeHash();
    render();
  }

  form.addEventListener('input', applyFromForm);
  form.addEventListener('change', applyFromForm);
  form.addEventListener('submit', function (event) { event.preventDefault(); applyFromForm(); });
  form.addEventListener('reset', function () {
    // After the browser has reset the controls.
    setTimeout(applyFromForm, 0);
  });
  // Cards and chart bars link to filters (#kind=manual); following one applies it.
  window.addEventListener('hashchange', function () {
    var next = readHash();
    if (!next) return;
    filter = next;
    syncForm();
    render();
  });

  // Print every matching finding, unfolded, not just the first page of each group.
  function setPrinting(value) {
    if (printing === value) return;
    printing = value;
    render();
  }
  window.addEventListener('beforeprint', function () { setPrinting(true); });
  window.addEventListener('afterprint', function () { setPrinting(false); });
  var printQuery = window.matchMedia('print');
  if (printQuery.addEventListener) printQuery.addEventListener('change', function (e) { setPrinting(e.matches); });

  if (!filter) {
    filter = {};
    FILTER_KEYS.forEach(function (key) { filter[key] = ''; });
  }
  syncForm();
  render();
  updateProgress();
  if (!storageWorks) say('This browser does not keep review ticks for local files: export them before closing.');
})();
