"use client";

import { useEffect, useId, useRef, useState } from "react";
import { publishPaymentOptionDetails, rememberTradeInAtPayment } from "./active-trade-in.js";
import {
  checkoutDetailsFromForm,
  PAYMENT_METHOD_INPUT_NAME,
  type PaymentOptionDetails,
  parsePaymentOptionDetails,
  presentPaymentOption,
  SERVICE_PAY_VALUE,
  staysSelectedAfterValuationUpdate,
} from "./payment-option.js";
import {
  onServiceEvent,
  type ReadyToPlaceOrderDetail,
  SERVICE_EVENTS,
  type ServiceSdk,
  servicePaymentIconUrl,
  whenServiceReady,
} from "./sdk-events.js";
import type { CheckoutFormFields, ShopRoutes } from "./shop-ports.js";
import {
  DEFAULT_PAYMENT_OPTION_CLASS_NAMES,
  DEFAULT_PAYMENT_OPTION_MESSAGES,
  type PaymentOptionClassNames,
  type PaymentOptionMessages,
} from "./shopper-texts.js";

/** `data-module-name` of the radio (contract: Payment option markup; README decision). */
const SERVICE_MODULE_NAME = "servicepay";

interface Props {
  /** The checkout form the option sits in (its submit is intercepted when the option is chosen). */
  formId: string;
  /** Whether the form's payment_method is currently service_pay. */
  selected: boolean;
  /** Makes the form's payment_method `service_pay` (true) or its other method (false). */
  onSelectedChange: (selected: boolean) => void;
  /** Changes whenever the cart or its currency does: the details are fetched again. */
  cartKey: string;
  /** The names of the host form's inputs the checkout's details are read from. */
  fields: CheckoutFormFields;
  /** Where the host serves the kit's checkout and pending-order handlers. */
  routes: Pick<ShopRoutes, "checkout" | "pendingOrder">;
  /** The shop's words for the kit's own texts (the service's texts come in its language). */
  messages?: Partial<PaymentOptionMessages> | undefined;
  /** The shop's class names for the option's elements (its look; the kit has no style). */
  classNames?: Partial<PaymentOptionClassNames> | undefined;
}

type Status = "loading" | "no-sdk" | "ready";

/**
 * The Service Pay radio (contract: Payment option details, Payment option mode, Front-end SDK ›
 * Payment option markup). `paymentOptionDetailsFor('ep1')` decides what it shows; the pure rules
 * are in payment-option.ts, this component wires them to the SDK and the checkout form:
 * - one change listener for every payment_method radio calls `updatePaymentSelected`,
 * - tradein_missing: choosing the option opens the wizard; after `service-valuation-updated`
 *   the details are fetched again and the option stays chosen only if now tradein_valid,
 * - submitting with the option chosen: no normal submit; the details are validated by
 *   POST `routes.checkout`, then `openPayment()`,
 * - the ready-to-place-order listener creates the pending order (POST `routes.pendingOrder`).
 * The form's inputs are read by the host's names (`fields`); only the radio's name and value are
 * fixed by the contract.
 */
export function ServicePaymentOption({
  formId,
  selected,
  onSelectedChange,
  cartKey,
  fields,
  routes,
  messages,
  classNames,
}: Props) {
  const text = { ...DEFAULT_PAYMENT_OPTION_MESSAGES, ...messages };
  const look = { ...DEFAULT_PAYMENT_OPTION_CLASS_NAMES, ...classNames };
  const id = useId();
  const [status, setStatus] = useState<Status>("loading");
  // undefined: not fetched yet; null: unreadable (hidden).
  const [details, setDetails] = useState<PaymentOptionDetails | null | undefined>(undefined);
  const [infoOpen, setInfoOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sdkRef = useRef<ServiceSdk | null>(null);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const onSelectedChangeRef = useRef(onSelectedChange);
  onSelectedChangeRef.current = onSelectedChange;
  const fetchSeq = useRef(0);
  const detailsRef = useRef(details);
  detailsRef.current = details;
  // Read at event time, so the listeners below need not be re-attached when the host re-renders.
  const wiringRef = useRef<Wiring>({ fields, routes, couldNotStart: text.couldNotStart });
  wiringRef.current = { fields, routes, couldNotStart: text.couldNotStart };

  /** Fetches the details; only the latest answer is applied. */
  const refreshRef = useRef(async (): Promise<PaymentOptionDetails | null | undefined> => {
    const sdk = sdkRef.current;
    if (!sdk) return null;
    const seq = ++fetchSeq.current;
    let fresh: PaymentOptionDetails | null;
    try {
      fresh = parsePaymentOptionDetails(await sdk.paymentOptionDetailsFor("ep1"));
    } catch (problem) {
      console.warn("[shop] paymentOptionDetailsFor failed; hiding the service's option", problem);
      fresh = null;
    }
    if (seq !== fetchSeq.current) return undefined; // a newer fetch is under way
    setDetails(fresh);
    publishPaymentOptionDetails(fresh);
    return fresh;
  });

  /** Un-chooses the option (the shopper is back on the shop's own method). */
  const deselectRef = useRef(() => {
    onSelectedChangeRef.current(false);
    sdkRef.current?.updatePaymentSelected(false);
  });

  // The SDK, once ready; everything that talks to it hangs off this.
  useEffect(() => {
    let live = true;
    const cleanups: (() => void)[] = [];
    void whenServiceReady().then((sdk) => {
      if (!live) return;
      if (!sdk) {
        setStatus("no-sdk");
        return;
      }
      sdkRef.current = sdk;
      setStatus("ready");
      const form = document.getElementById(formId);
      if (!(form instanceof HTMLFormElement)) return;

      // One delegated listener sees the change event of every payment_method radio, including
      // radios added later (public docs: a change listener on every payment_method radio).
      const onChange = (event: Event) => {
        const input = event.target;
        if (!(input instanceof HTMLInputElement)) return;
        if (input.name !== PAYMENT_METHOD_INPUT_NAME || !input.checked) return;
        const isService = input.value === SERVICE_PAY_VALUE;
        setError(null);
        sdk.updatePaymentSelected(isService);
        if (isService && detailsRef.current?.mode === "tradein_missing") {
          // tradein_missing: "selecting it opens the valuation wizard" (a no-op if already open).
          void sdk.openValuation();
        }
      };
      form.addEventListener("change", onChange);
      cleanups.push(() => form.removeEventListener("change", onChange));

      // Contract (Front-end SDK › Payment option markup): with the option chosen, the submit
      // handler prevents the default submit and calls openPayment(), and no other payment may
      // run. Listening on window in the capture phase comes before anything the page attached to
      // the form, its buttons, the document or React's root; stopping the event there keeps all
      // of them from it: a form action, a client onSubmit (a card SDK's confirmPayment) and a
      // submit button's click handler. A click is not prevented, only stopped: the browser still
      // submits the form, and that submit is taken here.
      const onSubmit = (event: SubmitEvent) => {
        if (event.target !== form || !selectedRef.current) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        void payWithService(sdk, form, wiringRef.current, setError, setBusy);
      };
      const onClick = (event: MouseEvent) => {
        if (!selectedRef.current) return;
        const submits = submitsForm(event.target, form);
        if (!submits) return;
        event.stopImmediatePropagation();
        // A marked button submits nothing by itself: the option's submit takes its place.
        if (submits === "marked") {
          event.preventDefault();
          form.requestSubmit();
        }
      };
      window.addEventListener("submit", onSubmit, true);
      window.addEventListener("click", onClick, true);
      cleanups.push(() => {
        window.removeEventListener("submit", onSubmit, true);
        window.removeEventListener("click", onClick, true);
      });

      const unsubscribe = sdk.addReadyToPlaceOrderListener((detail) =>
        createPendingOrder(form, wiringRef.current, detail),
      );
      if (typeof unsubscribe === "function") cleanups.push(unsubscribe as () => void);

      const afterWizard = async () => {
        const fresh = await refreshRef.current();
        if (fresh === undefined) return;
        if (selectedRef.current && !staysSelectedAfterValuationUpdate(true, fresh)) {
          deselectRef.current();
        }
      };
      cleanups.push(onServiceEvent(SERVICE_EVENTS.valuationUpdated, () => void afterWizard()));
      // Closing the wizard without accepting an offer leaves the mode tradein_missing: the option
      // must not stay chosen then either.
      cleanups.push(
        onServiceEvent(SERVICE_EVENTS.modalClosed, (detail) => {
          const modal = (detail as { modal?: unknown } | null)?.modal;
          if (modal === undefined || modal === "valuation") void afterWizard();
        }),
      );
    });
    return () => {
      live = false;
      for (const cleanup of cleanups) cleanup();
    };
  }, [formId]);

  // Fetch again whenever the cart or its currency changes (and once the SDK is ready).
  // biome-ignore lint/correctness/useExhaustiveDependencies: cartKey is the trigger, not an input
  useEffect(() => {
    if (status !== "ready") return;
    void refreshRef.current().then((fresh) => {
      if (fresh === undefined) return;
      const shown = presentPaymentOption(fresh);
      if (selectedRef.current && shown.kind !== "selectable") deselectRef.current();
    });
  }, [status, cartKey]);

  const presentation = presentPaymentOption(status === "ready" ? details : null);
  const state = (
    <span
      hidden
      data-testid="service-pay-state"
      data-mode={
        status !== "ready"
          ? status
          : details === undefined
            ? "loading"
            : (details?.mode ?? "unreadable")
      }
      data-template={details?.template_name ?? ""}
    />
  );
  if (presentation.kind === "hidden") return state;

  const inputId = `${id}-radio`;
  const infoId = `${id}-info`;
  const explanationId = `${id}-explanation`;
  const disabled = presentation.kind === "disabled";
  const label = presentation.label || text.fallbackLabel;
  const infoHtml = presentation.kind === "selectable" ? presentation.infoHtml : "";
  return (
    <div className={look.root} data-testid="service-pay-option" data-mode={details?.mode}>
      {state}
      <input
        id={inputId}
        type="radio"
        name={PAYMENT_METHOD_INPUT_NAME}
        value={SERVICE_PAY_VALUE}
        data-module-name={SERVICE_MODULE_NAME}
        checked={selected && !disabled}
        disabled={disabled || busy}
        aria-describedby={disabled ? explanationId : undefined}
        onChange={() => onSelectedChange(true)}
      />
      <div className={look.body}>
        <label htmlFor={inputId} className={look.label}>
          {/* biome-ignore lint/performance/noImgElement: a 48×32 SVG icon needs no image optimisation */}
          <img src={servicePaymentIconUrl() ?? ""} alt="" width={48} height={32} />
          <span className={look.title}>{label}</span>
        </label>
        {disabled ? (
          <p
            id={explanationId}
            className={look.explanation}
            data-testid="service-pay-explanation"
            data-template={presentation.template}
            // Sanitized: only <br> and <strong> survive (payment-option.ts).
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeServiceHtml
            dangerouslySetInnerHTML={{ __html: presentation.explanationHtml }}
          />
        ) : null}
        {infoHtml ? (
          <>
            <button
              type="button"
              className={look.infoButton}
              aria-expanded={infoOpen}
              aria-controls={infoId}
              onClick={() => setInfoOpen((open) => !open)}
            >
              {text.about(label)}
            </button>
            <div
              id={infoId}
              hidden={!infoOpen}
              className={look.info}
              data-testid="service-pay-info"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeServiceHtml
              dangerouslySetInnerHTML={{ __html: infoHtml }}
            />
          </>
        ) : null}
        {selected && !disabled && presentation.extraHtml ? (
          <p
            className={look.extra}
            data-testid="service-pay-extra"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by sanitizeServiceHtml
            dangerouslySetInnerHTML={{ __html: presentation.extraHtml }}
          />
        ) : null}
        {error ? (
          <p role="alert" className={look.error} data-testid="service-pay-error">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * How a click on `target` submits `form`: "native" for one of its submit buttons (a `<button>`
 * without a type is one; `form="…"` counts), "marked" for an element the host marks
 * `data-checkout-submit` inside or for it (a `type="button"` whose click handler would pay, then
 * submit by script), null for any other click.
 */
function submitsForm(
  target: EventTarget | null,
  form: HTMLFormElement,
): "native" | "marked" | null {
  if (!(target instanceof Element)) return null;
  const control = target.closest(
    "button, input[type=submit], input[type=image], [data-checkout-submit]",
  );
  if (!control) return null;
  if (
    (control instanceof HTMLButtonElement && control.type === "submit") ||
    (control instanceof HTMLInputElement && (control.type === "submit" || control.type === "image"))
  ) {
    return control.form === form ? "native" : null;
  }
  if (!control.hasAttribute("data-checkout-submit")) return null;
  const owner = control.getAttribute("form");
  return (owner ? owner === form.id : form.contains(control)) ? "marked" : null;
}

interface Wiring {
  fields: CheckoutFormFields;
  routes: Pick<ShopRoutes, "checkout" | "pendingOrder">;
  couldNotStart: string;
}

/** The checkout's details, read by the host's field names, as the kit's checkout and
 *  pending-order handlers take them (checkoutDetailsFromForm, payment-option.ts). */
function checkoutDetails(form: HTMLFormElement, fields: CheckoutFormFields) {
  return checkoutDetailsFromForm(new FormData(form), fields);
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
}

/** Validates the checkout's details on the server first, then opens the service's modal. */
async function payWithService(
  sdk: ServiceSdk,
  form: HTMLFormElement,
  wiring: Wiring,
  setError: (message: string | null) => void,
  setBusy: (busy: boolean) => void,
) {
  setError(null);
  setBusy(true);
  try {
    const response = await postJson(wiring.routes.checkout, checkoutDetails(form, wiring.fields));
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as {
        error_description?: unknown;
      } | null;
      // The route's description is written for the shopper: "Check these fields: email, billing
      // postal code." for details the checkout form must fix, or why the cart cannot be paid.
      setError(
        typeof body?.error_description === "string" ? body.error_description : wiring.couldNotStart,
      );
      return;
    }
    rememberTradeInAtPayment();
    await sdk.openPayment();
  } catch (problem) {
    console.warn("[shop] could not start Service Pay", problem);
    setError(wiring.couldNotStart);
  } finally {
    setBusy(false);
  }
}

/**
 * The merchant's pending order, keyed by cart id, created before the payment completes (contract,
 * Events: "create a pending order on ready-to-place-order ... and let the webhook confirm it").
 * A failure is thrown back to the SDK, which pays anyway; the webhook then waits on the server
 * until the order exists.
 */
async function createPendingOrder(
  form: HTMLFormElement,
  wiring: Wiring,
  detail: ReadyToPlaceOrderDetail,
) {
  const cartId = typeof detail?.cart_id === "string" ? detail.cart_id : undefined;
  const body = { ...(cartId ? { cart_id: cartId } : {}), ...checkoutDetails(form, wiring.fields) };
  // Idempotent by cart id, so a repeat is safe: two more tries after a dropped connection or a
  // 5xx, well inside the SDK's wait for its listeners. A 4xx is final.
  for (const pauseMs of [0, 500, 1500]) {
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    try {
      const response = await postJson(wiring.routes.pendingOrder, body);
      if (response.ok) return;
      if (response.status < 500) throw new Error(`pending order: HTTP ${response.status}`);
    } catch (problem) {
      if (problem instanceof Error && problem.message.startsWith("pending order")) throw problem;
    }
  }
  throw new Error("pending order: the shop did not answer");
}
