#!/usr/bin/env bash
# Runs every command of the README and docs/*.md as written: each line of every ```sh block
# (a trailing backslash continues it), from the repository root, after a build exists.
# Prints each command and its exit status; exits 1 if any failed.
#   scripts/check-docs.sh            # all documents
#   scripts/check-docs.sh docs/user-guide.md
# HCART_CHECK_DOCS_SKIP: commands (one per line, exactly as written) not to run again, e.g.
# the test suite that CI has just run in its own stage; they are listed as skipped.
# A command written the same way in several places runs once: where it comes again after it
# passed, the line says where it ran ("same as").
set -u
cd "$(dirname "$0")/.."
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(README.md docs/*.md)
failed=0 ran=0 skipped=0 repeated=0
declare -A passed_in # command -> the document where it passed
for doc in "${files[@]}"; do
  in_block=0 command=""
  while IFS= read -r line || [ -n "$line" ]; do
    if [ $in_block -eq 0 ]; then
      [[ "$line" == '```sh' ]] && in_block=1
      continue
    fi
    if [[ "$line" == '```' ]]; then
      in_block=0
      continue
    fi
    command+="${line%\\}"
    if [[ "$line" == *\\ ]]; then
      command+=" "
      continue
    fi
    [ -z "${command// /}" ] && { command=""; continue; }
    if [ -n "${HCART_CHECK_DOCS_SKIP:-}" ] && grep -qxF -- "$command" <<<"$HCART_CHECK_DOCS_SKIP"; then
      echo "skip (HCART_CHECK_DOCS_SKIP) $doc: $command"
      skipped=$((skipped + 1)) command=""
      continue
    fi
    if [ -n "${passed_in[$command]:-}" ]; then
      echo "same (as ${passed_in[$command]}) $doc: $command"
      repeated=$((repeated + 1)) command=""
      continue
    fi
    ran=$((ran + 1))
    start=$(date +%s)
    if bash -c "$command" </dev/null >/tmp/hcart-check-docs.log 2>&1; then
      echo "ok   ($(( $(date +%s) - start )) s) $doc: $command"
      passed_in[$command]=$doc
    else
      rc=$?
      failed=$((failed + 1))
      echo "FAIL (exit $rc) $doc: $command"
      tail -n 5 /tmp/hcart-check-docs.log | sed 's/^/     /'
    fi
    command=""
  done <"$doc"
done
echo "check-docs: $((ran - failed)) passed, $failed failed, $skipped skipped, $repeated repeated"
[ $failed -eq 0 ]
