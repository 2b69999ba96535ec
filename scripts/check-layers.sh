#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The layer rules of docs/architecture.md, checked on the includes ("file:line: rule" for each breach, exit 1):
# - model/ includes nothing from document/, views/ or app/; inside model/, cost < sim < files < analysis
#   (a library includes only itself and the ones before it: model/CMakeLists.txt links them in that order);
# - document/ includes nothing from views/ or app/, and no Qt Widgets or QCustomPlot header (Qt Core and Gui only);
# - views/ includes no cost-term, step-time or simulator header (model/cost/costterms.h, model/cost/steptime.h,
#   model/sim/*): a view asks document/ (document/readouts.h, document/simulationrunner.h) for what it shows;
# - outside views/floors/ only app/mainwindow.cpp includes a floor plot's own header (decodeplot.h, ...): the rest
#   goes through views/floors/floorplot.h, so no code outside the plots touches their graphs.
# Run by .ci/run and by CTest (test check_layers). Usage: scripts/check-layers.sh [SOURCE_ROOT]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

breaches=0
breach() { # file:line:text, rule
  printf '%s: %s\n' "${1%%:#*}" "$2" >&2
  breaches=$((breaches + 1))
}
# Each "#include" line of the C++ files under $1 matching the extended regex $2, as file:line:text.
includes() {
  [ -d "$1" ] || return 0
  grep -rnE --include='*.h' --include='*.cpp' "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1" || true
}
check() { # folder, regex, rule
  local line
  while IFS= read -r line; do
    [ -n "$line" ] && breach "$line" "$3"
  done < <(includes "$1" "$2")
}

check model 'document/|views/|app/' "model/ must not include document/, views/ or app/ (the model knows no document or window)"
check model/cost 'model/(sim|files|analysis)/' "model/cost must not include model/sim, model/files or model/analysis (cost < sim < files < analysis)"
check model/sim 'model/(files|analysis)/' "model/sim must not include model/files or model/analysis (cost < sim < files < analysis)"
check model/files 'model/analysis/' "model/files must not include model/analysis (cost < sim < files < analysis)"
check document 'views/|app/' "document/ must not include views/ or app/ (the document has no widgets)"
check document 'qcustomplot\.h|QtWidgets|QtCharts|QtPrintSupport' "document/ must not include Qt Widgets, Qt Charts or QCustomPlot (Qt Core and Gui only)"
# The Qt Widgets class headers (<QSlider>, <QLabel>, ...), read from the installed Qt when it is there.
for dir in /usr/include/x86_64-linux-gnu/qt6/QtWidgets /usr/include/aarch64-linux-gnu/qt6/QtWidgets /usr/include/qt6/QtWidgets; do
  if [ -d "$dir" ]; then
    widgets=$(find "$dir" -maxdepth 1 -type f -name 'Q[A-Z]*' ! -name '*.h' -printf '%f\n' | paste -sd '|')
    [ -n "$widgets" ] && check document "($widgets)>" "document/ must not include a Qt Widgets header (Qt Core and Gui only)"
    break
  fi
done
check views 'model/cost/costterms\.h|model/cost/steptime\.h|model/sim/' \
  "views/ must not include the cost terms, the step time or the simulator: ask document/ (document/readouts.h, document/simulationrunner.h)"
# The floor plots draw their own graphs (baseline A too: FloorPlot::setBaseline); outside views/floors/ a floor
# plot is a views::FloorPlot (views/floors/floorplot.h). app/mainwindow.cpp builds the window and hands the typed
# plots to the tests: the one file outside views/floors/ that includes their own headers.
while IFS= read -r line; do
  case "$line" in
    views/floors/* | app/mainwindow.cpp:*) ;;
    ?*) breach "$line" "only views/floors/ includes a floor plot's own header: use views/floors/floorplot.h (FloorPlot), so that no code outside the plot touches its graphs" ;;
  esac
done < <(includes views 'views/floors/(decode|roofline|kvshare|prefill|slo)plot\.h'; includes app 'views/floors/(decode|roofline|kvshare|prefill|slo)plot\.h')

if [ "$breaches" -gt 0 ]; then
  echo "check-layers: $breaches include(s) break the layers (docs/architecture.md)" >&2
  exit 1
fi
echo "check-layers: model/, document/ and views/ keep their layers"
