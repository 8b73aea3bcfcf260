import { inspectorEnabled } from "@/lib/service/inspector-feed";
import { IntegrationInspector } from "./integration-inspector";
import { TradeInMemo } from "./trade-in-memo";

/** The shop layout's one mount point for issue #6's browser parts: the trade-in memo, and the
 *  integration inspector unless INTEGRATION_INSPECTOR=off. */
export function IntegrationSlot() {
  return (
    <>
      <TradeInMemo />
      {inspectorEnabled() ? <IntegrationInspector /> : null}
    </>
  );
}
