import { inspectorEnabled } from "@service-integration/kit/server";
import { cookies } from "next/headers";
import {
  INSPECTOR_COOKIE,
  type InspectorPlacement,
  inspectorPlacementOf,
} from "./inspector-placement";
import { IntegrationInspector } from "./integration-inspector";
import { TradeInMemo } from "./trade-in-memo";

/** Where the docked inspector is, from its cookie: the frame makes room for it server-side. */
export async function inspectorPlacement(): Promise<InspectorPlacement | null> {
  if (!inspectorEnabled()) return null;
  return inspectorPlacementOf(true, (await cookies()).get(INSPECTOR_COOKIE)?.value);
}

/** The shop layout's one mount point for the integration's browser parts: the trade-in memo,
 *  and the integration inspector only with INTEGRATION_INSPECTOR=on (placement null otherwise). */
export function IntegrationSlot({ placement }: { placement: InspectorPlacement | null }) {
  return (
    <>
      <TradeInMemo />
      {placement ? <IntegrationInspector placement={placement} /> : null}
    </>
  );
}
