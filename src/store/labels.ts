// Labels of a message: what its headers say, what its locations' flags say, and what
// the folders it sits in mean (a copy in "Junk" is spam, one in "Deleted Items" trash).

const FOLDER_LABELS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /^(inbox|posta in arrivo|posteingang|boîte de réception|bandeja de entrada|caixa de entrada|входящие)$/,
    'inbox',
  ],
  [
    /^(spam|junk|junk e-?mail|junk mail|bulk|bulk mail|posta indesiderata|spam-verdacht|courrier indésirable|correo no deseado|lixo eletrônico|ongewenste e-mail|спам)$/,
    'spam',
  ],
  [
    /^(trash|bin|deleted|deleted items|deleted messages|cestino|posta eliminata|papierkorb|gelöschte elemente|corbeille|éléments supprimés|papelera|lixeira|itens excluídos|prullenbak|verwijderde items|корзина|удаленные)$/,
    'trash',
  ],
  [
    /^(sent|sent items|sent mail|sent messages|posta inviata|inviata|gesendet|gesendete elemente|envoyés|éléments envoyés|enviados|elementos enviados|itens enviados|verzonden|verzonden items|отправленные)$/,
    'sent',
  ],
  [/^(drafts?|bozze|entwürfe|brouillons|borradores|rascunhos|concepten|черновики)$/, 'draft'],
  [/^(archive|archives|archivio|archiv|archivo|arquivo|archief|архив)$/, 'archive'],
];

/** The label a folder name implies, judged on its last path segment; null for ordinary folders. */
export function labelForFolder(folder: string): string | null {
  const leaf = (folder.split('/').at(-1) ?? '').trim().toLowerCase();
  for (const [pattern, label] of FOLDER_LABELS) if (pattern.test(leaf)) return label;
  return null;
}

/** Normalises labels from every origin into one sorted, lowercase, de-duplicated list. */
export function mergeLabels(...groups: ReadonlyArray<readonly string[]>): string[] {
  const all = new Set<string>();
  for (const group of groups) {
    for (const label of group) {
      const normal = label.trim().toLowerCase();
      if (normal) all.add(normal);
    }
  }
  return [...all].sort();
}
