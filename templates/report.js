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
  var FILTER_KEYS = ['q', 'kind', 'category', 'type', 'verdict', 'reviewed', 'access'];
  var STORAGE_KEY = 'teams-migration-audit:review:' + data.organization.id;
  var EXPORT_FORMAT = 'teams-migration-audit/review-state/1';
  var FINDING_ID = /^[0-9a-f]{16}$/; // fingerprint() in src/analyze.ts

  var haystacks = findings.map(function (f) {
    return (f.identifier + '\n' + f.title + '\n' + f.location + '\n' + f.evidence).toLowerCase();
  });
  var manualTotal = findings.filter(function (f) { return f.kind === 'manual'; }).length;

  // ---- review state: one localStorage entry per organization, a map of finding id → true ----
  var storageWorks = true;
  var reviewed = loadMap(STORAGE_KEY);

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

  // ---- accepting into the baseline: one localStorage entry per organization, finding id → { reason } ----
  var ACCEPT_KEY = 'teams-migration-audit:accepted:' + data.organization.id;
  var BY_KEY = 'teams-migration-audit:accepted-by';
  var acceptedHere = loadMap(ACCEPT_KEY);

  // A map kept in localStorage (review ticks, acceptances); a browser that refuses storage gets an empty one.
  function loadMap(key) {
    try {
      var raw = window.localStorage.getItem(key);
      var parsed = raw ? JSON.parse(raw) : {};
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
    } catch (error) {
      storageWorks = false;
      return {};
    }
  }

  function setAccepted(f, reason) {
    if (reason) acceptedHere[f.id] = { reason: reason };
    else delete acceptedHere[f.id];
    try { window.localStorage.setItem(ACCEPT_KEY, JSON.stringify(acceptedHere)); } catch (error) { storageWorks = false; }
    updateAccepted();
    say(reason ? 'Accepted ' + f.type + ' ' + f.identifier + '; download the baseline to hand it to CI.' : 'Withdrawn.');
  }

  // The baseline `--baseline` reads: what this report already accepted, plus what was accepted here, in report order.
  function baselineEntries() {
    var by = acceptedByInput.value.trim() || 'report review';
    var entries = [];
    findings.forEach(function (f) {
      var here = acceptedHere[f.id];
      if (!f.accepted && !here) return;
      var entry = here ? { id: f.id, reason: here.reason, by: by } : { id: f.id, reason: f.accepted.reason, by: f.accepted.by };
      entry.category = f.category;
      entry.resource = f.resourceLabel;
      entry.location = f.location;
      entries.push(entry);
    });
    return entries;
  }

  var acceptedByInput = document.getElementById('accepted-by');
  try { acceptedByInput.value = window.localStorage.getItem(BY_KEY) || ''; } catch (error) { storageWorks = false; }
  acceptedByInput.addEventListener('change', function () {
    try { window.localStorage.setItem(BY_KEY, acceptedByInput.value.trim()); } catch (error) { storageWorks = false; }
  });

  function updateAccepted() {
    var here = Object.keys(acceptedHere).length;
    var inReport = findings.filter(function (f) { return f.accepted; }).length;
    document.getElementById('accepted-count').textContent = (inReport + here) + ' in the baseline (' + here + ' accepted here)';
  }

  function download(name, text) {
    var blob = new Blob([text], { type: 'application/json' });
    var link = el('a');
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }

  document.getElementById('download-baseline').addEventListener('click', function () {
    var entries = baselineEntries();
    download('audit-baseline.json', JSON.stringify({ format: data.baselineFormat, accepted: entries }, null, 2) + '\n');
    say('Downloaded a baseline of ' + entries.length + ' accepted item' + (entries.length === 1 ? '' : 's') + ': pass it to --baseline.');
  });

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
    if (filter.access === 'yes' && !changesAccess(f)) return false;
    for (var t = 0; t < terms.length; t++) if (haystacks[index].indexOf(terms[t]) === -1) return false;
    return true;
  }

  // ---- rendering ----
  var cards = {}; // finding id → card element, built once on first show
  var groupShown = {}; // group key → how many cards are shown
  var sectionShown = {}; // section id → how many groups are shown
  var printing = false;
  var shownCounts = {}; // section id → findings shown after the last render

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
      // Print is the work: what breaks, needs action or needs review; the rest stays out of it
      // (the print counts say how much), and building its cards would only slow the printing.
      var shown = !printing ? visibleGroups : visibleGroups
        .map(function (entry) { return { group: entry.group, items: entry.items.filter(function (i) { return printable(findings[i]); }) }; })
        .filter(function (entry) { return entry.items.length > 0; });
      shown.slice(0, groupLimit).forEach(function (entry) {
        fragment.appendChild(renderGroup(section, entry.group, entry.items));
      });
      if (shown.length > groupLimit) {
        var more = el('button', 'more', 'Show more (' + (shown.length - groupLimit) + ' more groups)');
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
      if (empty) {
        empty.hidden = sectionTotal > 0;
        // Blame the filter only when it hides something; a part with no findings at all says so.
        empty.textContent = all === 0 ? 'Nothing in this part: no findings of this kind.' : 'Nothing here matches the filter.';
      }
      shownCounts[section.id] = sectionTotal;
      // A folded part opens when the filter asks for what it holds.
      var part = document.getElementById('part-' + section.id);
      if (part && part.tagName === 'DETAILS' && sectionTotal > 0 && (filter.kind === 'automatic' || filter.category)) part.open = true;
    });
    // Folded on a phone, the bar still says how many filters hold.
    var active = FILTER_KEYS.filter(function (key) { return filter[key]; }).length;
    document.getElementById('filters-toggle').textContent = active ? 'Filters (' + active + ' active)' : 'Filters';
    document.getElementById('match-count').textContent =
      total === findings.length ? findings.length + ' findings' : total + ' of ' + findings.length + ' findings match';
  }

  // The manual work, in the org and in the repositories' files, less what is judged unaffected.
  function printable(f) {
    return f.kind === 'manual' && f.verdict !== 'unaffected';
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
    items.slice(0, limit).forEach(function (i) { wrap.appendChild(printing ? printCard(findings[i]) : card(findings[i], section.id)); });
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

  // Print lists the work, thousands of items: each as what and where, then what to do and the value
  // to write, built plain (no controls, no word diff), so a large report prints in seconds.
  function printCard(f) {
    var done = isReviewed(f);
    var article = el('article', 'finding print-card kind-' + f.kind + ' verdict-' + f.verdict + (done ? ' reviewed' : ''));
    article.id = 'f-' + f.id;
    article.dataset.id = f.id;
    var head = el('p', 'print-head');
    if (done) head.appendChild(el('span', 'print-done', '✓ '));
    head.appendChild(el('span', 'type', f.type));
    head.appendChild(document.createTextNode(' '));
    head.appendChild(el('code', 'identifier', f.identifier));
    head.appendChild(document.createTextNode(' '));
    head.appendChild(el('code', 'location', f.location));
    head.appendChild(el('span', 'fid', ' id ' + f.id));
    if (f.accepted || acceptedHere[f.id]) head.appendChild(el('span', 'print-accepted', ' (accepted)'));
    article.appendChild(head);
    if (f.suggestion) article.appendChild(el('p', 'print-line', f.suggestion));
    var value = el('p', 'print-value');
    value.appendChild(el('span', 'print-label', (f.rewrite ? f.afterLabel : 'Now') + ': '));
    value.appendChild(el('code', '', f.rewrite || f.evidence));
    article.appendChild(value);
    return article;
  }

  // A card is built from small parts, in this order; a new per-finding feature is one function
  // added to FINDING_PARTS (a block of the card) or BODY_ROWS (a row of its details), nothing else.
  // Each part gets (f, ctx) and returns a node or null; ctx = { article, sectionId }.
  var FINDING_PARTS = [headPart, wherePart, bodyPart];
  var BODY_ROWS = [whyRow, suggestionRow, changeRow, fixRow, noteRow, accessRow, acceptedRow, acceptRow];

  function card(f, sectionId) {
    var existing = cards[f.id];
    if (existing) return existing;
    var article = el('article', 'finding kind-' + f.kind + ' verdict-' + f.verdict);
    article.id = 'f-' + f.id;
    article.dataset.id = f.id;
    var ctx = { article: article, sectionId: sectionId };
    FINDING_PARTS.forEach(function (part) {
      var node = part(f, ctx);
      if (node) article.appendChild(node);
    });
    cards[f.id] = article;
    syncCard(article, f);
    return article;
  }

  function headPart(f, ctx) {
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
    if (ctx.sectionId === 'repository') badges.appendChild(el('span', 'badge', f.categoryTitle));
    // Every card says what it is: its verdict, "Needs action" for manual work no verdict applies to, or automatic.
    if (f.verdict !== 'none' || f.kind === 'manual') badges.appendChild(el('span', 'badge verdict verdict-' + f.verdict, f.verdictLabel));
    else badges.appendChild(el('span', 'badge kind-automatic', 'Automatic'));
    if (f.accepted) badges.appendChild(el('span', 'badge accepted', 'Accepted in baseline'));
    var acceptedHere = el('span', 'badge accepted accepted-here', 'Accepted here');
    badges.appendChild(acceptedHere);
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

    if (f.kind === 'manual' && !f.accepted) {
      var accept = el('button', 'accept-open', 'Accept…');
      accept.type = 'button';
      accept.setAttribute('aria-controls', 'a-' + f.id);
      accept.addEventListener('click', function () {
        ctx.article.classList.add('open', 'accepting');
        syncCard(ctx.article, f);
        var input = ctx.article.querySelector('.accept-reason');
        if (input) input.focus();
      });
      head.appendChild(accept);
    }

    var toggle = el('button', 'toggle');
    toggle.type = 'button';
    toggle.setAttribute('aria-controls', 'b-' + f.id);
    toggle.addEventListener('click', function () {
      ctx.article.classList.toggle('open');
      syncCard(ctx.article, f);
    });
    head.appendChild(toggle);
    return head;
  }

  // The location, the finding id (the baseline's key) and the way to the resource stay visible when a card folds.
  function wherePart(f) {
    var where = el('p', 'where');
    where.appendChild(el('span', 'visually-hidden', 'Location: '));
    where.appendChild(el('code', 'location', f.location));
    where.appendChild(document.createTextNode(' '));
    var id = el('span', 'fid');
    id.appendChild(document.createTextNode('id '));
    id.appendChild(el('code', 'finding-id', f.id));
    var copyId = el('button', 'copy copy-id', 'Copy id');
    copyId.type = 'button';
    copyId.setAttribute('aria-label', 'Copy id ' + f.id);
    copyId.addEventListener('click', function () { copyText(f.id, copyId, 'Copy id', 'Copied the finding id.'); });
    id.appendChild(copyId);
    where.appendChild(id);
    if (f.serviceUrl) {
      where.appendChild(document.createTextNode(' '));
      var open = externalLink('service-link', f.serviceLabel, f.serviceUrl);
      open.setAttribute('aria-label', f.serviceLabel + ': ' + f.type + ' ' + f.identifier);
      where.appendChild(open);
    }
    return where;
  }

  function bodyPart(f, ctx) {
    var body = el('dl', 'finding-body');
    body.id = 'b-' + f.id;
    BODY_ROWS.forEach(function (row) {
      var entry = row(f, ctx);
      if (entry) addRow(body, entry.term, entry.content);
    });
    return body;
  }

  function whyRow(f) {
    if (!f.exampleEntity || !f.exampleEntity.url) return { term: 'Why', content: document.createTextNode(f.reason) };
    // The blast radius's example entity, one click from its page in the service.
    var why = el('span');
    why.appendChild(document.createTextNode(f.reason + ' '));
    why.appendChild(externalLink('entity-link', 'Open entity ' + f.exampleEntity.identifier, f.exampleEntity.url));
    return { term: 'Why', content: why };
  }

  function externalLink(className, text, href) {
    var a = el('a', className, text);
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    return a;
  }
  // Empty when the Change row below says all of it (src/report/suggestion-text.ts).
  function suggestionRow(f) { return f.suggestion ? { term: 'Suggestion', content: document.createTextNode(f.suggestion) } : null; }
  function noteRow(f) { return f.note ? { term: 'Note', content: document.createTextNode(f.note) } : null; }
  function acceptedRow(f) {
    return f.accepted ? { term: 'Accepted', content: document.createTextNode(f.accepted.reason + ' (by ' + f.accepted.by + ')') } : null;
  }

  // With a computed new value the evidence is shown once, as the "before" of the change, each side
  // marking exactly what differs; Copy only where the value was checked to compile.
  // A value used beside the evidence (a relation's data move) replaces nothing: neither side is marked.
  function changeRow(f) {
    if (!f.rewrite) return { term: 'Evidence', content: codeBlock(f.evidence) };
    var marks = f.replaces ? diffTokens(f.evidence, f.rewrite) : { before: [{ text: f.evidence, changed: false }], after: [{ text: f.rewrite, changed: false }] };
    var change = el('div', 'change');
    var before = el('div', 'before');
    before.appendChild(el('div', 'change-label', f.beforeLabel));
    before.appendChild(markedBlock(marks.before, 'del'));
    var arrow = el('div', 'arrow', '→');
    arrow.setAttribute('aria-hidden', 'true');
    var after = el('div', 'after');
    var afterHead = el('div', 'change-label', f.afterLabel + ' ');
    if (f.copyable) {
      var copy = el('button', 'copy', 'Copy');
      copy.type = 'button';
      copy.setAttribute('aria-label', 'Copy the new value for ' + f.identifier + ' ' + f.location);
      copy.addEventListener('click', function () { copyText(f.rewrite, copy, 'Copy', 'Copied the new value.'); });
      afterHead.appendChild(copy);
    } else {
      afterHead.appendChild(el('span', 'unchecked', '(not checked to compile: edit by hand)'));
    }
    after.appendChild(afterHead);
    after.appendChild(markedBlock(marks.after, 'ins'));
    change.appendChild(before);
    change.appendChild(arrow);
    change.appendChild(after);
    return { term: 'Change', content: change };
  }

  // A file of the fix kit beside the report (analyze --fix-out); never a remote address. From
  // file:// the browser opens it in a new tab (a page's own origin only may force a download).
  function fixRow(f) {
    if (!f.fix) return null;
    var fix = el('a', 'fix-link', 'Download fix');
    fix.href = f.fix;
    fix.target = '_blank';
    fix.rel = 'noopener';
    fix.setAttribute('download', '');
    return { term: 'Fix', content: fix };
  }

  function acceptRow(f, ctx) {
    if (f.kind !== 'manual' || f.accepted) return null;
    var box = el('div', 'accept-form');
    box.id = 'a-' + f.id;
    var label = el('label', '', 'Reason ');
    var input = el('input', 'accept-reason');
    input.type = 'text';
    input.placeholder = 'why this item can stay as it is';
    input.value = acceptedHere[f.id] ? acceptedHere[f.id].reason : '';
    label.appendChild(input);
    var save = el('button', 'accept-save', 'Accept');
    save.type = 'button';
    // Enter in the reason accepts, as in any one-line form.
    input.addEventListener('keydown', function (event) {
      if (event.key !== 'Enter' || event.isComposing) return;
      event.preventDefault();
      save.click();
    });
    save.addEventListener('click', function () {
      var reason = input.value.trim();
      if (!reason) { say('Give a reason to accept an item.'); input.focus(); return; }
      setAccepted(f, reason);
      ctx.article.classList.remove('accepting');
      syncCard(ctx.article, f);
    });
    var undo = el('button', 'accept-undo', 'Withdraw');
    undo.type = 'button';
    undo.addEventListener('click', function () {
      setAccepted(f, '');
      input.value = '';
      syncCard(ctx.article, f);
    });
    box.appendChild(label);
    box.appendChild(save);
    box.appendChild(undo);
    return { term: 'Accept', content: box };
  }

  // Word-level differences of two texts (longest common subsequence of tokens), so before → after
  // marks only what changes: a title and the identifier that replaces it. Long texts fall back to
  // the common prefix and suffix, which stays linear.
  var DIFF_MAX_TOKENS = 600;
  function tokens(text) { return text.match(/[A-Za-z0-9_$@.-]+|\s+|[^A-Za-z0-9_$@.\s-]/g) || []; }
  function diffTokens(a, b) {
    var x = tokens(a);
    var y = tokens(b);
    var keepX = new Array(x.length).fill(false);
    var keepY = new Array(y.length).fill(false);
    var start = 0;
    while (start < x.length && start < y.length && x[start] === y[start]) { keepX[start] = keepY[start] = true; start++; }
    var endX = x.length - 1;
    var endY = y.length - 1;
    while (endX >= start && endY >= start && x[endX] === y[endY]) { keepX[endX] = keepY[endY] = true; endX--; endY--; }
    var n = endX - start + 1;
    var m = endY - start + 1;
    if (n > 0 && m > 0 && n <= DIFF_MAX_TOKENS && m <= DIFF_MAX_TOKENS) {
      var table = [];
      for (var i = 0; i <= n; i++) table.push(new Array(m + 1).fill(0));
      for (var i2 = n - 1; i2 >= 0; i2--) {
        for (var j2 = m - 1; j2 >= 0; j2--) {
          table[i2][j2] = x[start + i2] === y[start + j2] ? table[i2 + 1][j2 + 1] + 1 : Math.max(table[i2 + 1][j2], table[i2][j2 + 1]);
        }
      }
      var p = 0;
      var q = 0;
      while (p < n && q < m) {
        if (x[start + p] === y[start + q]) { keepX[start + p] = keepY[start + q] = true; p++; q++; }
        else if (table[p + 1][q] >= table[p][q + 1]) p++;
        else q++;
      }
    }
    return { before: runs(x, keepX), after: runs(y, keepY) };
  }
  // Consecutive tokens of the same kind as one run; whitespace between two changes stays inside the mark.
  function runs(list, keep) {
    var out = [];
    var space = list.map(function (token) { return /^\s+$/.test(token); });
    function changedAt(i) { return i >= 0 && i < list.length && !keep[i] && !space[i]; }
    list.forEach(function (token, i) {
      // Whitespace is marked only between two changed words, so "Platform Team" stays one mark.
      var changed = space[i] ? changedAt(i - 1) && changedAt(i + 1) : !keep[i];
      var last = out[out.length - 1];
      if (last && last.changed === changed) last.text += token;
      else out.push({ text: token, changed: changed });
    });
    return out;
  }
  function markedBlock(parts, tag) {
    var pre = el('pre');
    var code = el('code');
    parts.forEach(function (part) {
      if (part.changed) code.appendChild(el(tag, 'chg', part.text));
      else code.appendChild(document.createTextNode(part.text));
    });
    pre.appendChild(code);
    return pre;
  }

  // ---- access (issue 14): who loses or gains a permission because of a finding ----
  function changesAccess(f) {
    var lines = data.access[f.id] || [];
    for (var i = 0; i < lines.length; i++) if (lines[i].tone !== 'undecidable') return true;
    return false;
  }

  function accessRow(f) { return data.access[f.id] ? { term: 'Access', content: accessBlock(f, data.access[f.id]) } : null; }

  // "3 people lose the right to run this", unfolding to the list of their emails.
  function accessBlock(f, lines) {
    var wrap = el('div', 'access-lines');
    lines.forEach(function (line) {
      // Issue 41: past a few thousand people the page carries only the count and the entry of
      // report.json's access that lists them (line.entry); the reader opens report.json for them.
      var onDemand = line.entry !== undefined;
      if ((onDemand ? line.count : line.emails.length) === 0) {
        wrap.appendChild(el('p', 'access-line access-' + line.tone, line.text));
        return;
      }
      var details = el('details', 'access-line access-' + line.tone);
      details.appendChild(el('summary', '', line.text));
      details.appendChild(onDemand ? peopleOnDemand(f, line) : peopleList(line.people));
      wrap.appendChild(details);
    });
    return wrap;
  }

  function peopleList(people) {
    var list = el('ul', 'access-emails');
    // Each person links to their user page in the service when the report knows its address.
    people.forEach(function (person) {
      var item = el('li');
      item.appendChild(person.url ? externalLink('entity-link', person.email, person.url) : document.createTextNode(person.email));
      list.appendChild(item);
    });
    return list;
  }

  // report.access of the report.json the reader opened (one file fills every list), and the lists waiting for it.
  var openedAccess = null;
  var waitingForPeople = [];

  function peopleOnDemand(f, line) {
    var box = el('div', 'access-on-demand');
    // Draws the list from the opened report.json, or the way to open it (with why the last file did not do).
    function fill(problem) {
      box.textContent = '';
      var emails = openedAccess && peopleOf(openedAccess, f, line);
      if (emails) {
        box.appendChild(peopleList(emails.map(function (email) { return { email: email, url: data.userUrl ? data.userUrl + encodeURIComponent(email) : '' }; })));
        return true;
      }
      box.appendChild(el('p', 'access-load-why', 'Their emails are in report.json, beside this page: with this many people the page leaves them out to stay small.'));
      var label = el('label', 'access-load', 'Open report.json to list them ');
      var input = el('input');
      input.type = 'file';
      input.accept = 'application/json,.json';
      label.appendChild(input);
      box.appendChild(label);
      var note = el('p', 'access-load-status', problem || '');
      note.setAttribute('role', 'status');
      box.appendChild(note);
      input.addEventListener('change', function () { openReportJson(input, note); });
      return false;
    }
    if (!fill('')) waitingForPeople.push(fill);
    return box;
  }

  // The entry must be the one this page counted: same finding, and as many emails as the count.
  function peopleOf(access, f, line) {
    var entry = access[line.entry];
    var list = entry && typeof entry === 'object' && entry.finding === f.id ? entry[line.tone] : null;
    if (!Array.isArray(list) || list.length !== line.count) return null;
    for (var i = 0; i < list.length; i++) if (typeof list[i] !== 'string') return null;
    return list;
  }

  function openReportJson(input, note) {
    var file = input.files && input.files[0];
    if (!file) return;
    note.textContent = 'Reading ' + file.name + '…';
    var reader = new FileReader();
    reader.onload = function () {
      input.value = '';
      var parsed;
      try { parsed = JSON.parse(String(reader.result)); } catch (error) { note.textContent = 'Not read: the file is not JSON.'; return; }
      if (!parsed || !parsed.organization || parsed.organization.id !== data.organization.id || !Array.isArray(parsed.access)) {
        note.textContent = 'Not read: the file is not a report.json of organization ' + data.organization.id + ' with access.';
        return;
      }
      openedAccess = parsed.access;
      var still = waitingForPeople.filter(function (fill) { return !fill('That report.json does not list the people this page counted: open the one written with this page.'); });
      if (still.length > 0) openedAccess = null;
      waitingForPeople = still;
    };
    reader.onerror = function () { note.textContent = 'Not read: the browser could not read the file.'; };
    reader.readAsText(file);
  }

  // Each row is classed by its term (row-why, row-change…), so print keeps only what the work needs.
  function addRow(dl, term, content) {
    var row = 'row-' + term.toLowerCase();
    dl.appendChild(el('dt', row, term));
    var dd = el('dd', row);
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
    var here = acceptedHere[f.id];
    article.classList.toggle('accepted-local', Boolean(here));
    // The accept row (its term and its form) shows once "Accept…" is pressed, or while an acceptance stands.
    var form = article.querySelector('.accept-form');
    if (form) {
      var hide = !here && !article.classList.contains('accepting');
      form.parentNode.hidden = hide;
      form.parentNode.previousElementSibling.hidden = hide;
    }
  }

  function copyText(text, button, label, message) {
    function done(ok) {
      button.textContent = ok ? 'Copied' : 'Copy failed';
      say(ok ? message : 'Could not copy; select the text and copy it by hand.');
      setTimeout(function () { button.textContent = label; }, 1500);
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
    download('review-state-' + data.organization.id.replace(/[^A-Za-z0-9_-]+/g, '_') + '.json', JSON.stringify(payload, null, 2) + '\n');
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

  // Typing in the search waits for a pause: re-filtering 10,000 findings on every keystroke stalls the
  // page. Every other control, Enter and leaving the field apply at once.
  var SEARCH_PAUSE_MS = 250;
  var searchTimer = null;
  function applyNow() {
    if (searchTimer !== null) { clearTimeout(searchTimer); searchTimer = null; }
    applyFromForm();
  }
  form.addEventListener('input', function (event) {
    if (event.target && event.target.id === 'f-q') {
      if (searchTimer !== null) clearTimeout(searchTimer);
      searchTimer = setTimeout(applyNow, SEARCH_PAUSE_MS);
      return;
    }
    applyNow();
  });
  form.addEventListener('change', applyNow);
  form.addEventListener('submit', function (event) { event.preventDefault(); applyNow(); });
  form.addEventListener('reset', function () {
    // After the browser has reset the controls.
    setTimeout(applyNow, 0);
  });
  // Cards and chart bars link to filters (#kind=manual); following one applies it.
  window.addEventListener('hashchange', function () {
    var next = readHash();
    if (!next) return;
    filter = next;
    syncForm();
    render();
  });

  // A click on a chart bar, a legend key or a summary card filters and brings the list into view,
  // also when the hash is already that filter (which fires no hashchange).
  document.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a[href^="#"]') : null;
    if (!link) return;
    var hash = link.getAttribute('href').slice(1);
    if (hash.indexOf('=') === -1) return;
    event.preventDefault();
    var params = new URLSearchParams(hash);
    filter = {};
    FILTER_KEYS.forEach(function (key) { filter[key] = params.get(key) || ''; });
    writeHash();
    syncForm();
    render();
    scrollToResults();
  });

  function scrollToResults() {
    var target = null;
    for (var i = 0; i < data.sections.length && !target; i++) {
      if (shownCounts[data.sections[i].id] > 0) target = document.getElementById('part-' + data.sections[i].id);
    }
    target = target || document.getElementById('match-count');
    if (!target) return;
    // Below the filter bar when it sticks (wide screens); at the top on a phone, where it does not.
    var sticky = getComputedStyle(form).position === 'sticky' ? form.offsetHeight : 0;
    window.scrollTo({ top: target.getBoundingClientRect().top + window.scrollY - sticky - 8 });
  }

  // On a narrow screen the filter bar folds behind one button.
  var filtersToggle = document.getElementById('filters-toggle');
  filtersToggle.addEventListener('click', function () {
    var open = form.classList.toggle('open');
    filtersToggle.setAttribute('aria-expanded', String(open));
  });

  // Print the work: every matching item that breaks, needs action or needs review, unpaged; the
  // folded parts stay folded and out of print (the stylesheet), and the counts close the print.
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
  updateAccepted();
  if (!storageWorks) say('This browser does not keep review ticks for local files: export them before closing.');
})();
