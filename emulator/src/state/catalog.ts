import type {
  Catalog,
  CatalogModel,
  Cents,
  ConditionQuestion,
  Currency,
  TradeInCondition,
  TradeInDevice,
} from "../domain";

export type Quote =
  | {
      ok: true;
      value: Cents;
      currency: Currency;
      device: TradeInDevice;
      condition: TradeInCondition;
    }
  | { ok: false; reason: string };

export function questionsFor(catalog: Catalog, category: string): ConditionQuestion[] {
  return catalog.questions.filter((q) => q.categories.includes(category));
}

export function findModel(catalog: Catalog, modelId: string): CatalogModel | undefined {
  return catalog.models.find((m) => m.id === modelId);
}

/**
 * The valuation: base price × the product of the chosen answers' factors, rounded down to a
 * whole currency unit (the offer is an estimate). Every question of the model's category must
 * be answered with one of its answers.
 */
export function quote(
  catalog: Catalog,
  modelId: string,
  answers: Record<string, string>,
  currency: Currency,
): Quote {
  const model = findModel(catalog, modelId);
  if (!model) return { ok: false, reason: `unknown model ${modelId}` };
  const base = model.base_prices[currency];
  if (base === undefined) return { ok: false, reason: `no price for ${modelId} in ${currency}` };
  let factor = 1;
  const chosen: Record<string, string> = {};
  for (const question of questionsFor(catalog, model.category)) {
    const answerId = answers[question.id];
    const answer = question.answers.find((a) => a.id === answerId);
    if (!answer) return { ok: false, reason: `question ${question.id} needs an answer` };
    factor *= answer.factor;
    chosen[question.id] = answer.id;
  }
  const value = Math.floor((base * factor) / 100) * 100;
  return {
    ok: true,
    value,
    currency,
    device: { category: model.category, model_id: model.id, brand: model.brand, name: model.name },
    condition: { answers: chosen, factor: Math.round(factor * 10000) / 10000 },
  };
}
