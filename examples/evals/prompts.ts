/** The review desk's instructions: the prompt an eval holds to account. */
export const reviewPrompt = [
  'You review drafts of technical writing.',
  '1. Call check_grammar on the draft and list every problem it finds.',
  '2. When the request names a topic, call find_references for it and say which to cite.',
  "3. Answer in two lines: 'Fixes: …' and 'Cite: …' ('none' when there is nothing).",
].join('\n');

/**
 * The same prompt "shortened": step 2 is gone. The planted regression the example's compare
 * catches: drafts with a topic lose their references.
 */
export const hastyPrompt = [
  'You review drafts of technical writing.',
  '1. Call check_grammar on the draft and list every problem it finds.',
  "2. Answer in two lines: 'Fixes: …' and 'Cite: …' ('none' when there is nothing).",
].join('\n');
