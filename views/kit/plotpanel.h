// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <QByteArray>
#include <QFont>
#include <QFrame>
#include <QLabel>
#include <QString>
#include <QStringList>
#include <QTextDocument>
#include <QTextFormat>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QVBoxLayout;

namespace ridgeline::views {

class PlotInteraction;
class WordLayout;

/**
 * A QLabel in every respect (text(), font(), tool tips, selection by mouse) that measures and
 * paints its word-wrapped text from one QTextDocument of its own, laid out once per new text,
 * font or width.
 *
 * QLabel keeps a document for rich text and for selectable text and lays it out four to six times
 * per setText() (the text, the text option, the frame format, the width, then twice more per
 * heightForWidth()); with new figures on every slider step that was, after the window's layouts,
 * the largest cost of a step. Here heightForWidth() at the current width costs nothing more and
 * paintEvent() draws the same document. Pixel for pixel as QLabel for what this class reproduces:
 * word wrap, no margin, indent, frame or pixmap, plain (selectable) or rich text; anything else,
 * and painting while text is selected or the label has focus, is left to QLabel.
 */
class DocumentLabel final : public QLabel {
public:
    explicit DocumentLabel(QWidget* parent = nullptr);
    ~DocumentLabel() override;

    /**
     * QLabel::setText(@p text), repainting only what the new text changes (issue 16, fourteenth stop in
     * docs/performance.md): QLabel repaints its whole contents rect for any new text, every glyph of every line
     * blended again, where a slider step changes a figure or two. Here the lines shown are noted, QLabel's own
     * repaint is held back, and when the new text is laid out at the label's width (the layout pass the box's fit()
     * runs anyway) its lines are compared with them; only the differing part of each line is repainted: from a little before its first differing character to the right
     * edge, and some height above and below for glyphs that reach outside their line (a third of the line's
     * height). A line with the same text, formats and place repaints nothing. Where this class does not paint
     * (see the class comment), the label is hidden, or the text has moved as a whole (another line count with
     * vertical centring), the whole label repaints, as after setText().
     *
     * The comparison waits for the new text's layout at the label's width (the box's fit() asks for it, or a posted
     * event does): a text replaced again before then (a warning, then the takeaway) is not laid out for nothing.
     */
    void setTextRepaintingChanges(const QString& text);

    /**
     * Plain text selectable by mouse, as QLabel::setTextInteractionFlags(Qt::TextSelectableByMouse) makes it, with QLabel's
     * text control (a QWidgetTextControl and a second document, which this class neither measures nor paints with:
     * about 0.11 M instructions a label, 36 numbers before the first frame) made when first needed: on the label's
     * first mouse press or double click (which then also gives it the focus a click gives a Qt::ClickFocus label),
     * context menu or focus given by code (issue 16, twenty-second stop in docs/performance.md). Until then QLabel holds
     * its default flags and the label no focus policy (Qt 6.4's QLabel makes its control for a plain text that is
     * selectable or can take focus); this label measures and paints as a selectable one, and textInteractionFlags()
     * says TextSelectableByMouse. A rich text has QLabel's control from its first setText() whatever the flags.
     * QLabel::setTextInteractionFlags() called later gives QLabel those flags at once.
     */
    void setTextSelectableByMouseOnFirstUse();

    /**
     * With @p on the label fills what it repaints with palette::card() before its text and is opaque
     * (Qt::WA_OpaquePaintEvent), so that a repaint of the label paints nothing under it (issue 16, twenty-fourth stop in
     * docs/performance.md). For a label covering a LabelBox filled with the card's colour (LabelBox::setCardFill(), which
     * calls it): the same solid colour under the same text, so the same pixels, one widget painted instead of two. Off
     * by default.
     */
    void setCardFill(bool on);
    /** True while setCardFill(true) holds. */
    bool fillsCard() const { return m_cardFill; }
    /** QLabel::textInteractionFlags(), or Qt::TextSelectableByMouse while setTextSelectableByMouseOnFirstUse() waits
     *  for the first use. (Hides QLabel's; through a QLabel pointer QLabel's own flags are read.) */
    Qt::TextInteractionFlags textInteractionFlags() const;
    /** True once QLabel's text control exists (QLabel made it for a rich or selectable text): for tests. */
    bool hasTextControl() const;

    /**
     * With @p on, a rich text of a first block and a second block of one character format (a plot title: its heading,
     * then its takeaway) has its second block laid out and drawn by a views::WordLayout from words shaped once, instead
     * of by the document (issue 16, thirtieth stop in docs/performance.md, h16ax): a new takeaway then shapes only its
     * new words. The first block, the second block's top, line pitch and baseline come from a small document of the
     * heading and two lines of the takeaway's format, laid out once per width (the last eight kept); the same lines,
     * glyphs and pixels as the document's. It starts with the first new text set by setTextRepaintingChanges() on a
     * shown label: the texts before (start-up) are laid out by the document, as are texts that do not qualify
     * (WordLayout::qualifies(), other markup, a warning above the takeaway). A partial repaint's strips are bounded by
     * the words around a change (WordLayout::wordStartBefore()), not its characters. Off by default.
     */
    void setComposesLastBlock(bool on);
    /** How many texts the composed path laid out (see setComposesLastBlock()): for tests. */
    int composedLayouts() const;

    int heightForWidth(int width) const override;
    /** As QLabel's (QTextDocument::adjustSize() of the text, the golden-ratio shape), measured on
     *  this label's document once per text, font or alignment: QLabel measures through a second
     *  document of its own, parsed again for every new text and laid out about eight times per
     *  measurement (issue 16, sixth stop in docs/performance.md). */
    QSize sizeHint() const override;
    /** As QLabel's: the height of the text on one line, the width of its widest word; from this
     *  label's document (see sizeHint()). */
    QSize minimumSizeHint() const override;

    /** How many times this label's document has laid out a text (an empty document's passes not
     *  counted) since the label was made: for tests of the layout work per new text (issue 16,
     *  seventh stop in docs/performance.md). */
    int documentLayoutPasses() const { return m_layoutPasses; }
    /** True when every block of this label's document keeps its shaped glyphs between layout and paint
     *  (QTextLayout::cacheEnabled()), as syncDocument() sets for each new text: for tests (issue 16, twelfth
     *  stop in docs/performance.md). False for an empty document. */
    bool keepsShapedGlyphs() const;
    /** How many new texts setTextRepaintingChanges() repainted in part (the whole label not asked for): for tests. */
    int partialRepaints() const { return m_partialRepaints; }
    /** How many times this label's document was filled with a whole text (QTextDocument::setHtml() or setPlainText():
     *  for rich text an HTML parse) since the label was made; a new text edited into the document in place
     *  (textEditsInPlace()) is not counted. For tests (issue 16, nineteenth stop in docs/performance.md). */
    int documentFills() const { return m_documentFills; }
    /** How many times this label emptied its document with QTextDocument::clear() (a document holding text, before
     *  a new one or new settings); a document still empty is not cleared (issue 16, thirtieth stop in
     *  docs/performance.md). For tests. */
    int documentClears() const { return m_documentClears; }
    /** How many times this label measured the first width of QTextDocument::adjustSize() (80 x's of its font) for its
     *  size hints: once per font and screen resolution, not once per hint asked (issue 16, thirtieth stop). For
     *  tests. */
    int adjustWidthMeasurements() const { return m_adjustWidthMeasurements; }
    /** How many new texts were edited into this label's document in place, without a parse (see editInPlace()). */
    int textEditsInPlace() const { return m_editsInPlace; }
    /** The blocks (their numbers in the label's document) the last in-place edit changed, and so laid out and shaped
     *  again: a title's heading, a block of its own, is not among them when only the takeaway changed. For tests (issue
     *  16, twentieth stop in docs/performance.md). */
    const std::vector<int>& blocksEditedLast() const { return m_blocksEditedLast; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    bool isRich() const;
    /** True for the settings this class reproduces (see the class comment). */
    bool ownsLayout() const;
    struct Composed;
    /** The composed layout of text() at @p width (px, the contents' width), or null when it does not apply
     *  (setComposesLastBlock()). */
    const Composed* composedAt(int width) const;

    /** m_document holding text() in font(), laid out @p width px wide; rebuilt only on a change. */
    const QTextDocument& document(int width) const;
    /** Refills m_document when text(), font() or alignment() changed since it was filled. */
    void syncDocument() const;
    /** Measures m_hint* from m_document unless they hold for its text and the contents margins. */
    void measureHints() const;
    /** Lays m_document out @p width px wide (a pass even at the same width) and notes whether it wrapped. */
    void setDocumentWidth(qreal width) const;
    /** Prepares m_document for syncDocument() to fill at @p width px: empties it and sets the width,
     *  unless it is at that width with the current font and alignment applied (syncDocument() then
     *  replaces the text in one layout pass without emptying it first). */
    void emptyAtWidth(int width) const;
    /** QTextDocument::adjustSize()'s first width for font(): 80 x's (px), measured once per font and resolution. */
    int adjustSizeFirstWidthPx() const;
    /**
     * Puts text() into m_document laid out @p width px wide by editing the text that differs from m_text in place,
     * without a parse (issue 16, nineteenth stop in docs/performance.md): when the document holds m_text as filled,
     * font and alignment are unchanged, and both texts split (TextRuns) into runs of characters between the same
     * markup, each run's changed characters are replaced in the run's character format. At the document's width only
     * the blocks edited are laid out again (once); at another width the whole text is laid out once there, as after
     * a fill. Returns false, changing nothing, when the texts do not qualify.
     */
    bool editInPlace(int width) const;
    /** Notes what m_document holds after a fill of m_text: its runs, when the document's text is theirs. */
    void noteRuns() const;
    /** Sets m_unwrapped (and m_unwrappedWidthPx) from m_document's current layout. */
    void noteLayout() const;
    /** True when m_document's current layout is the one it would have at @p width (px). */
    bool layoutHoldsAt(int width) const;

    /** One line of m_document as painted: its rect in the label (px, the vertical alignment applied), its text
     *  and the character format of each run of it. */
    struct PaintedLine {
        QRectF rect;
        qreal ascent = 0;
        qreal naturalX = 0; ///< where the glyphs start in the line (its alignment)
        qreal naturalWidth = 0; ///< the glyphs' advance, from naturalX (QTextLine::naturalTextWidth())
        QString text;
        int block = 0; ///< the block's number in m_document
        int line = 0;  ///< the line's number in its block
        std::vector<std::pair<int, QTextCharFormat>> formats; ///< (first character in text, format) per run
    };
    /** The lines of m_document laid out at the contents rect's width, where paintEvent() draws them; empty when
     *  the document holds anything but plain blocks in its root frame (tables, lists, images, frames). */
    std::vector<PaintedLine> paintedLines() const;
    /** Where the vertical alignment puts m_document (its current layout) in the contents rect (px from its top). */
    qreal verticalOffset(const QRect& contents) const;
    /** paintedLines() for the text shown, kept from the last comparison while text, font, alignment and contents rect stay. */
    std::vector<PaintedLine> shownLines() const;
    /** Repaints what the text set since m_shownBefore changed (setTextRepaintingChanges()); ends the pending state. */
    void repaintChanges() const;

    mutable QTextDocument m_document;
    mutable QString m_text;           ///< text() m_document holds
    mutable QFont m_font;             ///< font() m_document was built with
    mutable Qt::Alignment m_alignment;
    mutable bool m_settingsApplied = false; ///< m_document has m_font and m_alignment as its defaults
    // sizeHint() and minimumSizeHint() before the widget's minimum size is applied, for m_text and
    // m_hintMarginsPx (the contents margins' width and height); m_hintMarginsPx negative: not measured.
    mutable QSize m_hintMarginsPx{-1, -1};
    mutable QSize m_hintPx;
    mutable QSize m_minimumHintPx;
    /** Heights (px, unrounded) of m_text's layouts at widths heightForWidth() was asked (px, contents margins
     *  taken off), oldest first; emptied with each new text, font or alignment (syncDocument()). */
    mutable std::vector<std::pair<int, qreal>> m_heightsForWidths;
    static constexpr std::size_t kHeightsForWidthsKept = 8;
    mutable bool m_unwrapped = false; ///< m_document's current layout wraps no line of m_text
    mutable qreal m_unwrappedWidthPx = 0; ///< the widest line when m_unwrapped (QTextDocument::idealWidth())
    int m_layoutPasses = 0; ///< see documentLayoutPasses()
    mutable int m_documentClears = 0; ///< see documentClears()
    mutable int m_adjustWidthMeasurements = 0; ///< see adjustWidthMeasurements()
    // adjustSizeFirstWidthPx() for m_adjustWidthFont at m_adjustWidthDpi; m_adjustWidthPx negative: not measured.
    mutable QFont m_adjustWidthFont;
    mutable qreal m_adjustWidthDpi = 0;
    mutable int m_adjustWidthPx = -1;
    mutable int m_documentFills = 0; ///< see documentFills()
    mutable int m_editsInPlace = 0; ///< see textEditsInPlace()
    mutable std::vector<int> m_blocksEditedLast; ///< see blocksEditedLast()
    // m_text split into runs when m_document holds it, filled or edited, and its text is the runs' (editInPlace()):
    // the markup between the runs (a marker character where each run goes), the runs as the document holds
    // them, and where each starts in the document. m_runsValid false: the document cannot be edited in place.
    mutable bool m_runsValid = false;
    mutable bool m_runsRich = false;
    mutable QString m_runsMarkup;
    mutable QStringList m_runs;
    mutable std::vector<int> m_runStarts;
    mutable int m_partialRepaints = 0; ///< see partialRepaints()
    mutable bool m_repaintPending = false; ///< a new text's repaint waits for its layout (setTextRepaintingChanges())
    mutable std::vector<PaintedLine> m_shownBefore; ///< the lines shown when the pending text was set
    // The lines of the last comparison and what they hold for (shownLines()).
    mutable std::vector<PaintedLine> m_lines;
    mutable QString m_linesText;
    mutable QFont m_linesFont;
    mutable Qt::Alignment m_linesAlignment;
    mutable QRect m_linesContents;
    /** setTextSelectableByMouseOnFirstUse() waits: QLabel gets Qt::TextSelectableByMouse on the first use. */
    bool m_selectableOnFirstUse = false;
    bool m_cardFill = false; ///< see setCardFill()
    std::unique_ptr<Composed> m_composed; ///< see setComposesLastBlock(); null while off
};

/**
 * Holds a word-wrapped QLabel outside any layout and stands in for it in its parent's layout, so
 * that a new text of the same size costs a repaint of the label and nothing more.
 *
 * QLabel::setText() calls updateGeometry(), which invalidates every layout from the label up to the
 * window; the next pass then re-measures every word-wrapped label on the way (for rich text, several
 * QTextDocument layouts each: the largest cost of a slider step before this box existed). Here the
 * label's request stops at the box, which compares the height the new text needs at the current
 * width with the height it has and asks its own layout for a new height only when that differs.
 * The box reports the label's size hints and height-for-width, so layouts treat it as the label.
 *
 * With @p growOnly the box keeps the tallest height the label needed at the current width (reset
 * when the width changes): a takeaway alternating between two and three lines during a drag then
 * does not make the plot below it jump, resize and re-allocate its paint buffers on every step.
 *
 * A label without height-for-width (one line, not word-wrapped, e.g. a slider's unit) is compared by
 * its size hints instead: the box asks its layout again only when the label's sizeHint() or
 * minimumSizeHint() differs from the one it last reported to the layout (issue 16, tenth stop).
 */
class LabelBox final : public QWidget {
public:
    /** Reparents @p label into the new box, which takes the label's size policy. */
    LabelBox(QLabel* label, bool growOnly, QWidget* parent = nullptr);

    /** The label held. */
    QLabel* label() const { return m_label; }

    /**
     * Grow-only boxes: gives back the height held beyond what the label needs now at the current width
     * (asks the layout for the smaller height). For a caller that knows when edits have paused, so
     * that a value which shrank during a drag does not leave a gap behind it (NumbersPanel).
     */
    void relax();

    /** With @p on the box paints its rect in palette::card(), the colour of the cards it sits on,
     *  and is opaque (Qt::WA_OpaquePaintEvent): a new text then repaints the box and the label but
     *  not the card's style-sheet background (a rounded rectangle) behind them. A DocumentLabel held is
     *  given the same fill (DocumentLabel::setCardFill()): it then covers the box with opaque pixels, and a
     *  new text repaints the label alone. Off by default. */
    void setCardFill(bool on);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    /** Asks the parent layout for a new height when the label needs one (see the class comment). */
    void fit();

    QLabel* m_label;
    bool m_growOnly;
    bool m_cardFill = false;
    int m_fittedWidth = -1; ///< width (px) m_fittedHeight applies to
    int m_fittedHeight = 0; ///< height (px) the label needs (growOnly: needed so far) at m_fittedWidth
    // The label's hints as last reported to the layout (sizeHint(), minimumSizeHint()), for a label without
    // height-for-width; invalid until asked.
    mutable QSize m_reportedHintPx;
    mutable QSize m_reportedMinimumHintPx;
};

/**
 * The bytes of everything a plot draws from, for PlotPanel::sameInputsAsDrawn() (issue 16): numbers,
 * flags and whole arrays appended in a fixed order. Equal bytes mean equal inputs (a NaN equals
 * itself here, as it draws the same).
 */
class InputBytes {
public:
    /** Appends each of @p values (arithmetic or enum) as its bytes. */
    template <typename... T>
    InputBytes& add(T... values)
    {
        (append(values), ...);
        return *this;
    }
    /** Appends every element of @p array. */
    InputBytes& addArray(const Eigen::ArrayXd& array)
    {
        append(qsizetype(array.size()));
        m_bytes.append(reinterpret_cast<const char*>(array.data()), qsizetype(array.size() * qsizetype(sizeof(double))));
        return *this;
    }
    const QByteArray& bytes() const { return m_bytes; }

private:
    template <typename T>
    void append(T value)
    {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>, "numbers and flags only: no padding bytes");
        m_bytes.append(reinterpret_cast<const char*>(&value), qsizetype(sizeof value));
    }
    QByteArray m_bytes;
};

/**
 * A card holding one plot: a heading with the plot's live takeaway in words and numbers above a
 * QCustomPlot. Subclasses create their graphs once and overwrite their data in refresh().
 *
 * Object names derive from the stem given to the constructor: "<stem>Panel", "<stem>Title",
 * "<stem>Plot" (e.g. "decodeTitle", "sloPlot").
 */
class PlotPanel : public QFrame {
    Q_OBJECT

public:
    /**
     * @param heading short name shown in bold, e.g. "Decode floor"
     * @param stem object-name stem, e.g. "decode"
     * @param formulaToolTip the formulas the plot draws, shown on hover over the title and plot
     */
    PlotPanel(const QString& heading, const QString& stem, const QString& formulaToolTip, QWidget* parent = nullptr);

    /** The title label (heading and takeaway, rich text). It sits in a LabelBox (grow-only), not
     *  in cardLayout() directly: a new takeaway repaints the label without re-laying out the
     *  window, and the box asks for more height only when the text needs more lines than it has. */
    QLabel* titleLabel() const { return m_title; }
    /** The plot. */
    QCustomPlot* plot() const { return m_plot; }
    /** The plot's hover read-out, zoom and pan and context menu (views/kit/plotinteraction.h). */
    PlotInteraction* interaction() const { return m_interaction; }
    /** The current takeaway as plain text, without the heading; led by the warning when one is set. */
    QString takeaway() const { return m_warning.isEmpty() ? m_takeaway : m_warning + QLatin1Char(' ') + m_takeaway; }

    /**
     * Shows @p text (plain) in the error colour between the heading and the takeaway, kept across
     * refreshes until replaced; empty removes it. The window sets weightsFitWarning() on every plot.
     */
    void setWarning(const QString& text);

    /**
     * With @p on, a warning set by setWarning() takes the takeaway's place in the title (heading, then the warning) and
     * the takeaway moves to the title's tool tip, after the formulas; takeaway() still returns both. Off by default
     * (heading, warning, takeaway). For the floors' five plots (MainWindow): the warning and the takeaway together
     * made every title taller where the weights stop fitting, which resized and replotted the five plots and laid out
     * the floors tab on that model-size step (2.4 times a step's instructions: issue 16, h16m in docs/performance.md).
     */
    void setWarningReplacesTakeaway(bool on);

    /**
     * Redraws from @p evaluation, which was computed from @p scenario (the document's
     * evaluatedScenario()). Overwrites data in place and queues a replot.
     */
    virtual void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) = 0;

    /**
     * Runs the replot refresh() queued, now, if one is queued: the plot is drawn into its paint
     * buffers before the window's next paint pass. Called right after refresh() by the window, so
     * the five plots of one step are painted together in one pass. Without it the Qt Charts view of
     * the KV share card, which dispatches the window's pending paint as soon as its scene changes,
     * splits a step into two or three paint passes (and repaints the cards' titles in each).
     */
    void replotNow();

protected:
    /**
     * On the plot's Resize (before QCustomPlot::resizeEvent() replots it in full at the new size): drops the
     * replot refresh() queued, which would draw the same again (issue 16: at start-up each floor plot was
     * replotted in the window's constructor at 100 x 30 px, then again, queued, after its first resize).
     */
    bool eventFilter(QObject* watched, QEvent* event) override;

public:

    /**
     * Makes the next refresh() redraw even when the plot's inputs are those it last drew (see
     * sameInputsAsDrawn()): after a change refresh() does not see, e.g. the theme's font scale or a
     * baseline's layers removed (their widened axis range).
     */
    void redrawOnNextRefresh() { m_drawnInputs.clear(); }

    /** Times refresh() redrew the plot (queued a replot) rather than skipping unchanged inputs. */
    long long redrawCount() const { return m_redraws; }

    /**
     * The note in the axis rect's bottom-right corner while a current point the plot watches (watchCurrentPoint()) is
     * off its axes: "current point off scale: B = 1,000,000,000" (issue 14: at extremes a floor plot's axis range left
     * the scenario's own point out, with no word of it). Hidden while every watched point is in range; null for a plot
     * that watches none.
     */
    QCPItemText* offScaleNote() const { return m_offScaleNote; }

protected:
    /**
     * For refresh() of a plot that reads a small part of the evaluation (issue 16: the prefill plot
     * does not depend on the batch or the context): true when @p inputs, the bytes of everything the
     * plot draws from, equal those of the last redraw, which refresh() may then skip. False (and
     * @p inputs kept) otherwise, or after redrawOnNextRefresh(); an empty @p inputs never matches.
     */
    bool sameInputsAsDrawn(const QByteArray& inputs);
    /** Counts a redraw (redrawCount()); refresh() calls it when it queues its replot. */
    void countRedraw() { ++m_redraws; }

    /**
     * Watches @p marker, a one-point graph at the scenario's current point: before each replot, when its point is not
     * finite, or outside the key or value axis' range (or not above 0 on a log axis), offScaleNote() says so with
     * @p describe(key, value) ("B = 1,000,000,000"), several such points joined by "; ". Checked on the ranges as
     * drawn, so a zoom or pan that leaves the point out says so too. The note is made on the first call.
     */
    void watchCurrentPoint(QCPGraph* marker, std::function<QString(double key, double value)> describe);

    /** Sets the takeaway text (plain text: escaped here). */
    void setTakeaway(const QString& text);
    /** The card's layout: the title's box at index 0, plot last; subclasses may insert between. */
    QVBoxLayout* cardLayout() const { return m_layout; }
    /** Keeps a copy of @p scenario (the one refresh() draws) for read-outs evaluated at the cursor;
     *  the copy reuses its storage, so this costs no allocation on a slider step. */
    void keepForReadout(const model::Scenario& scenario);
    /** The scenario kept by keepForReadout(), or null before the first refresh(). */
    const model::Scenario* readoutScenario() const { return m_hasReadoutScenario ? &m_readoutScenario : nullptr; }

private:
    void renderTitle();
    /** Shows or hides offScaleNote() for the watched points (watchCurrentPoint()), at the axis ranges as drawn. */
    void noteOffScalePoints();

    struct WatchedPoint {
        QCPGraph* marker;
        std::function<QString(double, double)> describe;
    };
    std::vector<WatchedPoint> m_watched;
    QCPItemText* m_offScaleNote = nullptr;

    QString m_heading;
    QString m_takeaway;
    QString m_warning;
    QString m_formulaToolTip; ///< the title's tool tip without a takeaway (see setWarningReplacesTakeaway())
    bool m_warningReplacesTakeaway = false;
    DocumentLabel* m_title = nullptr;
    LabelBox* m_titleBox = nullptr; ///< holds m_title outside the layout (see titleLabel())
    QCustomPlot* m_plot = nullptr;
    PlotInteraction* m_interaction = nullptr;
    QVBoxLayout* m_layout = nullptr;
    model::Scenario m_readoutScenario;
    bool m_hasReadoutScenario = false;
    QByteArray m_drawnInputs; ///< sameInputsAsDrawn(): the inputs of the last redraw
    long long m_redraws = 0;
};

/**
 * Delivers every posted LayoutRequest, again and again until a pass delivers none, at most @p maxPasses passes; returns
 * the passes that delivered one. QCoreApplication::sendPostedEvents() leaves the events posted while it runs for the next
 * call, and a layout request climbs one level per pass (a title's box, its card, the floors' grid): with a single pass a
 * title that grew resized its plot only in the next event-loop pass, after the step's replot, and the plot was replotted
 * a second time at its new size (issue 16, tenth stop in docs/performance.md). Called before the step's replots.
 */
int deliverLayoutRequests(int maxPasses = 16);

/**
 * "Does not fit: ..." when the weights (and activation reserve) do not fit the usable HBM per GPU
 * (model::CapacityResult::weightsFit), naming the figures; empty when they fit. For every plot's title.
 */
QString weightsFitWarning(const model::Scenario& scenario, const model::Evaluation& evaluation);

} // namespace ridgeline::views
