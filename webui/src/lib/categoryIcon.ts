/** An icon for a field of work or category, guessed from its English name or slug. */
const RULES: [RegExp, string][] = [
  [/plumb|pipe|water|heat|boiler|cooling|hvac|air/i, 'wrench'],
  [/electr|solar|light/i, 'bolt'],
  [/law|legal|notary|attorney|consult/i, 'scale'],
  [/dent|doctor|medic|health|clinic|nurs|therap|physio|vet|pharm/i, 'health'],
  [/beauty|hair|barber|salon|nail|makeup|spa|cosmet/i, 'scissors'],
  [/car|auto|mechanic|vehicle|tire|tyre/i, 'car'],
  [/tutor|teach|educat|lesson|school|language|music|class/i, 'book'],
  [/build|construct|repair|renovat|home|house|clean|carpent|decor|paint/i, 'home'],
  [/comput|it\b|software|web|tech|phone|mobile|electronic|digital/i, 'laptop'],
  [/photo|video|film|design|print/i, 'camera'],
  [/mov|transport|deliver|freight|courier|logist/i, 'truck'],
  [/food|cook|cater|restaurant|bak|cafe|pastr/i, 'food'],
  [/insur|account|financ|tax|bank|real estate|estate/i, 'briefcase'],
];

export function categoryIcon(c: { english_name?: string; slag?: string } | null | undefined): string {
  const s = `${c?.english_name ?? ''} ${c?.slag ?? ''}`;
  for (const [re, icon] of RULES) if (re.test(s)) return icon;
  return 'briefcase';
}
