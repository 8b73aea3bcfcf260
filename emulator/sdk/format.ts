// Formatting and the SDK's own wording. The page's language (`<html lang>`) picks the locale;
// English and Spanish are bundled, anything else falls back to English.

import { ServiceTimeout } from "./api";

export type Locale = "en" | "es";

export function pageLocale(): Locale {
  // navigator.language is never empty in a browser: it is the last fallback.
  const lang = `${document.documentElement.lang || navigator.language}`.toLowerCase();
  return lang.startsWith("es") ? "es" : "en";
}

/** Integer cents to a localized currency string (contract: all money is integer cents). */
export function money(cents: number, currency: string, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
}

export function dateTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
}

// Exported for the SDK page suite's every-word check (emulator/e2e/every-word.e2e.ts), which reads
// each of them where it shows, in both languages; nothing else imports them.
export const en = {
  calculate: "Calculate discount",
  again: "Value another device",
  banner: "Trade in your old device and save on your order.",
  "product-widget": "Pay less for this product with your old device.",
  "cart-summary": "Trade in a device to lower this total.",
  "thank-you": "Have another device at home? Trade it in on your next order.",
  offer: "Your trade-in",
  offerLine: "{device}: {value} off",
  validUntil: "Valid until {date}",
  wizardTitle: "Trade-in valuation",
  close: "Close",
  step: "Step {n} of 3",
  stepDevice: "Choose your device",
  stepCondition: "Tell us about its condition",
  stepOffer: "Your offer",
  category: "Category",
  model: "Model",
  chooseOne: "Choose…",
  next: "Next",
  back: "Back",
  getOffer: "Get offer",
  accept: "Accept offer",
  offerIntro: "We offer {value} for your {device}.",
  estimate: "This offer is an estimate, confirmed when we receive the device.",
  loginTitle: "Log in to calculate your discount",
  loginText:
    "Log in to your account at this shop, then open the valuation again. Your offer is saved to your account.",
  testMarker: "test",
  required: "Please answer every question.",
  pickModel: "Please choose a category and a model.",
  failed: "Something went wrong. Please try again.",
  timedOut: "The service did not answer in time. Please try again.",
  payTitle: "Pay with Service",
  items: "Items",
  quantity: "Qty",
  subtotal: "Cart total",
  discount: "Trade-in discount",
  left: "Amount left to pay",
  howToPay: "How would you like to pay?",
  card: "Card",
  bank: "Bank transfer",
  payNow: "Pay now",
  paying: "Processing payment…",
  paid: "Payment completed. Taking you to your order…",
  emptyCart: "Your cart is empty.",
  cannotPay: "Service Pay cannot be used for this order.",
  purchaseRejected:
    "The shop sent order details the service cannot accept, so this order cannot be paid with Service Pay. Please choose another payment method or contact the shop.",
} as const;

export type MessageKey = keyof typeof en;

export const es: Record<MessageKey, string> = {
  calculate: "Calcular descuento",
  again: "Tasar otro dispositivo",
  banner: "Entrega tu dispositivo usado y ahorra en tu pedido.",
  "product-widget": "Paga menos por este producto con tu dispositivo usado.",
  "cart-summary": "Entrega un dispositivo para reducir este total.",
  "thank-you": "¿Tienes otro dispositivo en casa? Entrégalo en tu próximo pedido.",
  offer: "Tu dispositivo a entregar",
  offerLine: "{device}: {value} de descuento",
  validUntil: "Válido hasta {date}",
  wizardTitle: "Tasación de tu dispositivo",
  close: "Cerrar",
  step: "Paso {n} de 3",
  stepDevice: "Elige tu dispositivo",
  stepCondition: "Cuéntanos su estado",
  stepOffer: "Tu oferta",
  category: "Categoría",
  model: "Modelo",
  chooseOne: "Elige…",
  next: "Siguiente",
  back: "Atrás",
  getOffer: "Ver oferta",
  accept: "Aceptar oferta",
  offerIntro: "Te ofrecemos {value} por tu {device}.",
  estimate: "La oferta es una estimación que se confirma al recibir el dispositivo.",
  loginTitle: "Inicia sesión para calcular tu descuento",
  loginText:
    "Inicia sesión en tu cuenta de esta tienda y vuelve a abrir la tasación. Tu oferta se guarda en tu cuenta.",
  testMarker: "prueba",
  required: "Responde todas las preguntas.",
  pickModel: "Elige una categoría y un modelo.",
  failed: "Algo ha fallado. Inténtalo de nuevo.",
  timedOut: "El servicio no ha respondido a tiempo. Inténtalo de nuevo.",
  payTitle: "Pagar con Service",
  items: "Artículos",
  quantity: "Cant.",
  subtotal: "Total del carrito",
  discount: "Descuento por entrega",
  left: "Importe pendiente",
  howToPay: "¿Cómo quieres pagar?",
  card: "Tarjeta",
  bank: "Transferencia bancaria",
  payNow: "Pagar ahora",
  paying: "Procesando el pago…",
  paid: "Pago completado. Te llevamos a tu pedido…",
  emptyCart: "Tu carrito está vacío.",
  cannotPay: "Service Pay no se puede usar para este pedido.",
  purchaseRejected:
    "La tienda ha enviado datos del pedido que el servicio no puede aceptar, así que este pedido no se puede pagar con Service Pay. Elige otro método de pago o contacta con la tienda.",
};

/** What the shopper reads when a call failed: a call the service never answered says so. */
export function failureMessage(locale: Locale, error: unknown): string {
  return t(locale, error instanceof ServiceTimeout ? "timedOut" : "failed");
}

export function t(locale: Locale, key: MessageKey, vars: Record<string, string> = {}): string {
  const template = locale === "es" ? es[key] : en[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? "");
}
