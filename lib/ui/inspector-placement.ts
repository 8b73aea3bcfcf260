/**
 * The drawer's open state lives in a cookie, so the server renders the page with the docked
 * drawer's room already made (no shift after load). "auto" until the shopper chooses: docked
 * open on a wide screen, closed on a small one, decided by CSS before any script runs.
 */
export const INSPECTOR_COOKIE = "integration_inspector";
export type InspectorPlacement = "open" | "closed" | "auto";

/** The placement a page is rendered with: null with the inspector off. */
export function inspectorPlacementOf(
  enabled: boolean,
  cookieValue: string | undefined,
): InspectorPlacement | null {
  if (!enabled) return null;
  return cookieValue === "open" || cookieValue === "closed" ? cookieValue : "auto";
}
