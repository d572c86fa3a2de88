# path.sh -- environment of termeval's own recipe (run.sh, tests/run_tests.sh, local/*). The
# step scripts do not need it: they find termeval's root and Python themselves
# (utils/termeval_lib.sh, utils/termeval_python.sh), whatever the caller has sourced.
# On first use it creates tools/venv from the pinned runtime requirements.txt (utils/setup_env.sh;
# tests/run_tests.sh adds requirements-test.txt);
# later calls only check a stamp, so they are fast and work offline. Never exits the caller.
# termeval's utils/ is deliberately NOT put on PATH: it must not shadow a Kaldi recipe's utils/.
TERMEVAL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TERMEVAL_ROOT
export LC_ALL=C PYTHONUNBUFFERED=1 PYTHONIOENCODING=UTF-8 OMP_NUM_THREADS=1 MPLBACKEND=Agg
if ! cmp -s "$TERMEVAL_ROOT/requirements.txt" "$TERMEVAL_ROOT/tools/venv/.requirements.done" 2>/dev/null; then
  "$TERMEVAL_ROOT/utils/setup_env.sh" || { return 1 2>/dev/null || exit 1; }    # its error line says what to do
fi
case ":$PATH:" in
  *":$TERMEVAL_ROOT/tools/venv/bin:"*) ;;
  *) export PATH="$TERMEVAL_ROOT/tools/venv/bin:$PATH" ;;
esac
case ":${PYTHONPATH:-}:" in
  *":$TERMEVAL_ROOT:"*) ;;
  *) export PYTHONPATH="$TERMEVAL_ROOT${PYTHONPATH:+:$PYTHONPATH}" ;;
esac
# Optional Kaldi: only used if the user has it; never required.
if [ -n "${KALDI_ROOT:-}" ] && [ -d "$KALDI_ROOT/src/bin" ]; then
  export PATH="$PATH:$KALDI_ROOT/src/bin:$KALDI_ROOT/src/kwsbin"
fi
