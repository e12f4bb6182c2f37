// A local stand-in for Stripe, for tests (no test reaches Stripe): a small node:http server that
// answers the API endpoints the platform uses (platform/domain/billing.ts), through the real
// `stripe` package pointed at it (`new Stripe(key, { host, port, protocol: "http" })`, i.e.
// STRIPE_API_URL), and serves the browser's side: a test double of Stripe.js (/stripe.js, with
// STRIPE_JS_URL) and the hosted Checkout page (/checkout/{id}, which saves a test card and
// redirects to the session's success URL; ?cancel=1 to its cancel URL).
//
//   const standin = await startStripeStandin();      // { url, port, close, failNext, requests, reset }
//   standin.failNext({ message: "Your card was declined." });   // the next API call fails so
//
// Card errors the way Stripe answers them (402, {error: {type: "card_error", …}}): attaching the
// payment method pm_card_chargeDeclined (Stripe's own test id; the Stripe.js double makes it for
// the card number 4000 0000 0000 0002), or any call after failNext().
import http from "node:http";
import { randomBytes } from "node:crypto";

const id = (prefix) => `${prefix}_${randomBytes(9).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding (a[b][0][c]=v) back into objects and arrays. */
export function parseStripeForm(text) {
  const out = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

const cardError = (message = "Your card was declined.", code = "card_declined", decline_code = "generic_decline") => ({
  status: 402,
  body: { error: { type: "card_error", code, decline_code, message } },
});
const missing = (what, value) => ({
  status: 404,
  body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}: '${value}'`, param: "id" } },
});

export async function startStripeStandin({ port = 0, host = "127.0.0.1" } = {}) {
  const customers = new Map();
  const paymentMethods = new Map();
  const subscriptions = new Map();
  const sessions = new Map();
  const setupIntents = new Map();
  /** Every API request: { method, path, body, idempotencyKey }. */
  const requests = [];
  let failures = [];
  let origin = "";
  /** Answers by Idempotency-Key, as Stripe keeps them: the same key answers the first answer again. */
  const idempotent = new Map();
  /** Milliseconds every API answer waits (latency, to open the windows races need). */
  let latency = 0;

  function paymentMethod(pmId, customer = null) {
    const pm = paymentMethods.get(pmId) ?? {
      id: pmId,
      object: "payment_method",
      type: "card",
      card: { brand: "visa", last4: pmId.includes("chargeDeclined") ? "0002" : "4242", exp_month: 12, exp_year: 2034 },
      customer,
      created: now(),
    };
    paymentMethods.set(pmId, pm);
    return pm;
  }

  function api(method, path, body, query) {
    let m;
    if (method === "POST" && path === "/v1/customers") {
      const c = { id: id("cus"), object: "customer", created: now(), invoice_settings: { default_payment_method: null }, ...body };
      customers.set(c.id, c);
      return { body: c };
    }
    if ((m = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      const c = customers.get(m[1]);
      if (!c) return missing("customer", m[1]);
      if (method === "DELETE") {
        customers.delete(m[1]);
        return { body: { id: m[1], object: "customer", deleted: true } };
      }
      if (method === "POST") Object.assign(c, body, { invoice_settings: { ...c.invoice_settings, ...(body.invoice_settings ?? {}) } });
      return { body: c };
    }
    if (method === "POST" && (m = path.match(/^\/v1\/payment_methods\/([^/]+)\/attach$/))) {
      if (!customers.has(body.customer)) return missing("customer", body.customer);
      if (m[1].includes("chargeDeclined")) return cardError();
      const pm = paymentMethod(m[1], body.customer);
      pm.customer = body.customer;
      return { body: pm };
    }
    if (method === "POST" && path === "/v1/subscriptions") {
      if (!customers.has(body.customer)) return missing("customer", body.customer);
      const s = {
        id: id("sub"),
        object: "subscription",
        status: "active",
        customer: body.customer,
        default_payment_method: body.default_payment_method ?? null,
        items: { object: "list", data: (body.items ?? []).map((i) => ({ id: id("si"), price: { id: i.price } })) },
        metadata: body.metadata ?? {},
        created: now(),
      };
      subscriptions.set(s.id, s);
      return { body: s };
    }
    if ((m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const s = subscriptions.get(m[1]);
      if (!s) return missing("subscription", m[1]);
      if (method === "DELETE") s.status = "canceled";
      return { body: s };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (body.mode !== "setup") return { status: 400, body: { error: { type: "invalid_request_error", message: "The stand-in only knows setup mode." } } };
      const seti = { id: id("seti"), object: "setup_intent", status: "requires_payment_method", customer: body.customer ?? null, payment_method: null };
      setupIntents.set(seti.id, seti);
      const s = {
        id: id("cs_test"),
        object: "checkout.session",
        mode: "setup",
        status: "open",
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        setup_intent: seti.id,
      };
      s.url = `${origin}/checkout/${s.id}`;
      sessions.set(s.id, s);
      return { body: s };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const s = sessions.get(m[1]);
      if (!s) return missing("checkout.session", m[1]);
      const expand = Object.values(query.expand ?? {});
      return { body: expand.includes("setup_intent") ? { ...s, setup_intent: setupIntents.get(s.setup_intent) } : s };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/setup_intents\/([^/]+)$/))) {
      const seti = setupIntents.get(m[1]);
      return seti ? { body: seti } : missing("setup_intent", m[1]);
    }
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  /** The hosted Checkout page: saves a test card on the session's SetupIntent and goes back. */
  function checkout(sessionId, cancel) {
    const s = sessions.get(sessionId);
    if (!s) return { status: 404, headers: { "content-type": "text/plain" }, body: "No such checkout session" };
    if (cancel) return { status: 303, headers: { location: s.cancel_url } };
    const seti = setupIntents.get(s.setup_intent);
    const pm = paymentMethod(id("pm"), s.customer);
    Object.assign(seti, { status: "succeeded", payment_method: pm.id });
    s.status = "complete";
    return { status: 303, headers: { location: s.success_url.replace("{CHECKOUT_SESSION_ID}", s.id) } };
  }

  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", origin);
    const send = (status, headers, body) => {
      res.writeHead(status, { "access-control-allow-origin": "*", ...headers });
      res.end(body);
    };
    if (url.pathname === "/stripe.js") {
      return send(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" }, stripeJsDouble);
    }
    let m;
    if (req.method === "GET" && (m = url.pathname.match(/^\/checkout\/([^/]+)$/))) {
      const r = checkout(m[1], url.searchParams.has("cancel"));
      return send(r.status, r.headers, r.body);
    }
    if (url.pathname.startsWith("/v1/")) {
      const body = parseStripeForm(text);
      const idempotencyKey = req.headers["idempotency-key"] ? String(req.headers["idempotency-key"]) : null;
      requests.push({ method: req.method, path: url.pathname, body, idempotencyKey });
      if (!String(req.headers.authorization ?? "").startsWith("Bearer sk_")) {
        return send(401, { "content-type": "application/json" }, JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
      }
      if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
      const replay = req.method === "POST" && idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
      if (replay) {
        if (replay.path !== url.pathname) {
          const mismatch = { type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with (${replay.path}).` };
          return send(400, { "content-type": "application/json" }, JSON.stringify({ error: mismatch }));
        }
        return send(replay.status, { "content-type": "application/json", "request-id": id("req"), "idempotent-replayed": "true" }, replay.body);
      }
      const failure = failures.shift();
      const r = failure ? cardError(failure.message, failure.code, failure.decline_code) : api(req.method, url.pathname, body, parseStripeForm(url.search.slice(1)));
      const answer = JSON.stringify(r.body);
      if (req.method === "POST" && idempotencyKey) idempotent.set(idempotencyKey, { path: url.pathname, status: r.status ?? 200, body: answer });
      return send(r.status ?? 200, { "content-type": "application/json", "request-id": id("req") }, answer);
    }
    send(404, { "content-type": "text/plain" }, "Not found");
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  origin = `http://${host}:${address.port}`;
  return {
    url: origin,
    port: address.port,
    requests,
    /** The next API call answers a card error with this message (Stripe's 402 card_error). */
    failNext(opts = {}) {
      failures.push({ message: opts.message ?? "Your card was declined.", code: opts.code ?? "card_declined", decline_code: opts.decline_code ?? "generic_decline" });
    },
    reset() {
      failures = [];
      requests.length = 0;
      latency = 0;
    },
    /** Every API answer waits this long (0: none); reset() clears it. */
    setLatency(ms) {
      latency = ms;
    },
    /** The subscriptions the stand-in holds (what Stripe would bill), of one customer's account or all. */
    subscriptions(accountId) {
      return [...subscriptions.values()].filter((s) => accountId === undefined || s.metadata?.account_id === accountId);
    },
    /** The customers the stand-in holds, of one account or all. */
    customers(accountId) {
      return [...customers.values()].filter((c) => accountId === undefined || c.metadata?.account_id === accountId);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/*
 * The Stripe.js test double: window.Stripe(publishableKey) with what @stripe/react-stripe-js and
 * the billing page use: elements() → create("card") → mount/on/off/update/destroy, and
 * createPaymentMethod({ type: "card", card, billing_details }). The card element is three labelled
 * inputs (number, expiry, CVC) in the page itself. 4242 4242 4242 4242 gives pm_card_visa;
 * 4000 0000 0000 0002 gives pm_card_chargeDeclined (the stand-in's attach declines it); an
 * incomplete number answers Stripe's validation error.
 */
const stripeJsDouble = String.raw`(function () {
  "use strict";
  function Stripe(key) {
    if (typeof key !== "string" || !/^pk_/.test(key)) throw new Error("Invalid publishable key");
    var made = 0;
    function createElement(type) {
      var listeners = {};
      var root = null;
      var inputs = {};
      function emit(name, payload) { (listeners[name] || []).slice().forEach(function (cb) { cb(payload); }); }
      function field(name, label, autocomplete, placeholder) {
        var wrap = document.createElement("label");
        wrap.style.display = "block";
        wrap.style.marginBottom = "0.25rem";
        wrap.textContent = label;
        var input = document.createElement("input");
        input.name = "stripe-double-" + name;
        input.setAttribute("autocomplete", autocomplete);
        input.setAttribute("inputmode", "numeric");
        input.placeholder = placeholder;
        input.className = "input input-bordered w-full";
        input.addEventListener("input", function () {
          emit("change", { elementType: type, empty: !inputs.number.value, complete: complete(), error: undefined });
        });
        input.addEventListener("focus", function () { emit("focus", { elementType: type }); });
        input.addEventListener("blur", function () { emit("blur", { elementType: type }); });
        wrap.appendChild(input);
        root.appendChild(wrap);
        inputs[name] = input;
      }
      function digits() { return (inputs.number ? inputs.number.value : "").replace(/\D/g, ""); }
      function complete() { return digits().length >= 15 && !!inputs.exp.value && !!inputs.cvc.value; }
      var element = {
        _type: type,
        mount: function (target) {
          root = typeof target === "string" ? document.querySelector(target) : target;
          root.setAttribute("data-stripe-double", "card");
          field("number", "Card number", "cc-number", "1234 1234 1234 1234");
          field("exp", "Expiry (MM / YY)", "cc-exp", "MM / YY");
          field("cvc", "CVC", "cc-csc", "CVC");
          setTimeout(function () { emit("ready", { elementType: type }); }, 0);
        },
        on: function (name, cb) { (listeners[name] = listeners[name] || []).push(cb); return element; },
        off: function (name, cb) { listeners[name] = (listeners[name] || []).filter(function (x) { return x !== cb; }); return element; },
        once: function (name, cb) { var w = function (e) { element.off(name, w); cb(e); }; return element.on(name, w); },
        update: function () {},
        focus: function () { if (inputs.number) inputs.number.focus(); },
        blur: function () {},
        clear: function () { Object.keys(inputs).forEach(function (k) { inputs[k].value = ""; }); },
        unmount: function () { if (root) root.innerHTML = ""; },
        destroy: function () { element.unmount(); listeners = {}; },
        _digits: digits,
        _complete: complete,
      };
      return element;
    }
    var byType = {};
    var elements = {
      create: function (type, options) { var e = createElement(type, options); byType[type] = e; return e; },
      // A type name, or (as @stripe/react-stripe-js passes it) the React component with __elementType.
      getElement: function (type) { return byType[typeof type === "string" ? type : type && type.__elementType] || null; },
      update: function () {},
      fetchUpdates: function () { return Promise.resolve({}); },
      submit: function () { return Promise.resolve({}); },
    };
    function error(code, message) { return Promise.resolve({ error: { type: "validation_error", code: code, message: message } }); }
    return {
      elements: function () { return elements; },
      createPaymentMethod: function (params) {
        var card = params && params.card;
        if (!card || !card._digits) return error("invalid_request", "A card element is required.");
        var n = card._digits();
        if (n.length === 0) return error("incomplete_number", "Your card number is incomplete.");
        if (n.length < 15) return error("incomplete_number", "Your card number is incomplete.");
        if (!card._complete()) return error("incomplete_expiry", "Your card's expiration date is incomplete.");
        made += 1;
        var pmId = n === "4000000000000002" ? "pm_card_chargeDeclined" : "pm_card_visa";
        return Promise.resolve({ paymentMethod: { id: pmId, object: "payment_method", type: "card", billing_details: params.billing_details || {}, card: { last4: n.slice(-4) } } });
      },
      createToken: function () { return error("unsupported", "Not supported by the test double."); },
      confirmCardPayment: function () { return error("unsupported", "Not supported by the test double."); },
      confirmCardSetup: function () { return error("unsupported", "Not supported by the test double."); },
      _registerWrapper: function () {},
      registerAppInfo: function () {},
    };
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();
`;
