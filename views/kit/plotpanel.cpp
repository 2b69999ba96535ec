// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotpanel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QLabel>
#include <QPaintEvent>
#include <QPainter>
#include <QPalette>
#include <QRegion>
#include <QStringList>
#include <QStyleOption>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextLayout>
#include <QTextDocument>
#include <QVBoxLayout>
#include <QtMath>

#include <qcustomplot.h>

#include "document/format.h"
#include "views/kit/card.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/kit/wordlayout.h"

namespace ridgeline::views {

namespace {

/** floor(sqrt(n)), as QtCore's qt_int_sqrt() that QTextDocument::adjustSize() uses (exported by QtCore but declared in
 *  no header, so not called here): exact for every unsigned int, whose square roots a double resolves. */
unsigned int integerSqrt(unsigned int n)
{
    return unsigned(std::sqrt(double(n)));
}

/** True when a line of @p document's current layout ends where the text did not break it (a line
 *  separator, <br>, or the end of a paragraph): the text wrapped at the document's width. */
bool wrapsALine(const QTextDocument& document)
{
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        const QTextLayout* layout = block.layout();
        if (!layout)
            return true;
        const QString text = block.text();
        for (int i = 0; i + 1 < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const int end = line.textStart() + line.textLength();
            if (end <= 0 || end > text.size() || text.at(end - 1) != QChar::LineSeparator)
                return true;
        }
    }
    return false;
}

/**
 * A text split into runs of characters between markup, as a QTextDocument holds them after setHtml() (rich) or
 * setPlainText() (plain), for DocumentLabel::editInPlace() (issue 16, nineteenth stop in docs/performance.md).
 * Rich text qualifies when its tags are only inline character formatting (span, b, i, u, s, sub, sup, small, big,
 * font, strong, em), line breaks (br: one U+2028 in the document) and a first block (a "<div>" opening the text, its
 * "</div>" followed by more: one U+2029 in the document; a plot title's heading), and each run's characters map one to one onto
 * the document's: no white space but single spaces between other characters (the HTML parser collapses and trims
 * white space), no control characters, and no entities but &amp; &lt; &gt; &quot;. Plain text is a run per line (no
 * empty line), each line break a block separator in the document: a value whose lines all change is edited line by line,
 * and a line that does not change keeps its block's layout.
 */
struct TextRuns {
    QString markup;          ///< the tags in order, kRunMarker where each run goes (rich text; empty for plain)
    QStringList runs;        ///< each run as the document holds it (entities resolved; plain: the whole text)
    std::vector<int> starts; ///< where each run starts in the document (characters)
    QString documentText;    ///< the document's text (QTextDocument::toRawText()) for these runs
};

constexpr QChar kRunMarker(0xFFFF);

/** True for a character QTextCursor::insertText() turns into a block or frame boundary. */
bool breaksABlock(QChar c)
{
    return c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QChar::ParagraphSeparator
        || (c.unicode() >= 0xFDD0 && c.unicode() <= 0xFDEF);
}

/** Splits @p text (rich: HTML) into @p runs; false when it does not qualify (see TextRuns). */
bool splitRuns(const QString& text, bool rich, TextRuns* runs)
{
    runs->markup.clear();
    runs->runs.clear();
    runs->starts.clear();
    runs->documentText.clear();
    if (text.isEmpty())
        return false;
    if (!rich) { // a run per line (a block each), the markup the line breaks between them
        qsizetype start = 0;
        while (true) {
            qsizetype end = text.indexOf(QLatin1Char('\n'), start);
            if (end < 0)
                end = text.size();
            const QString line = text.mid(start, end - start);
            if (line.isEmpty() || std::any_of(line.begin(), line.end(), breaksABlock))
                return false; // an empty line has no character whose format an edit could take
            runs->markup += kRunMarker;
            runs->starts.push_back(int(runs->documentText.size()));
            runs->documentText += line;
            runs->runs.append(line);
            if (end == text.size())
                return true;
            runs->markup += QLatin1Char('\n');
            runs->documentText += QChar::ParagraphSeparator;
            start = end + 1;
        }
    }
    static const QString kInlineTags[]{QStringLiteral("span"), QStringLiteral("b"),     QStringLiteral("i"),
                                       QStringLiteral("u"),    QStringLiteral("s"),     QStringLiteral("sub"),
                                       QStringLiteral("sup"),  QStringLiteral("small"), QStringLiteral("big"),
                                       QStringLiteral("font"), QStringLiteral("strong"), QStringLiteral("em")};
    const qsizetype size = text.size();
    qsizetype i = 0;
    while (i < size) {
        if (text.at(i) == QLatin1Char('<')) {
            const qsizetype end = text.indexOf(QLatin1Char('>'), i);
            if (end < 0)
                return false;
            const QStringView tag = QStringView(text).mid(i + 1, end - i - 1);
            const bool closing = tag.startsWith(QLatin1Char('/'));
            const QStringView body = closing ? tag.mid(1) : tag;
            qsizetype nameEnd = 0;
            while (nameEnd < body.size() && body.at(nameEnd).isLetter())
                ++nameEnd;
            const QStringView name = body.left(nameEnd);
            const QStringView rest = body.mid(nameEnd);
            if (!rest.isEmpty() && !rest.at(0).isSpace() && rest != QLatin1String("/"))
                return false;
            if (rest.count(QLatin1Char('"')) % 2 != 0 || rest.count(QLatin1Char('\'')) % 2 != 0)
                return false; // a '>' inside a quoted attribute
            if (name.compare(QLatin1String("br"), Qt::CaseInsensitive) == 0) {
                if (closing)
                    return false;
                runs->documentText += QChar::LineSeparator;
            } else if (name.compare(QLatin1String("div"), Qt::CaseInsensitive) == 0) {
                // A plot title's heading as a block of its own (PlotPanel::renderTitle()): "<div>" opening the text,
                // its "</div>" followed by more text (a paragraph separator in the document); nowhere else.
                if (!rest.isEmpty())
                    return false;
                if (!closing && i != 0)
                    return false;
                if (closing && (!runs->markup.startsWith(QLatin1String("<div>")) || runs->markup.contains(QLatin1String("</div>"))
                                || end + 1 >= size))
                    return false;
                if (closing)
                    runs->documentText += QChar::ParagraphSeparator;
            } else if (std::none_of(std::begin(kInlineTags), std::end(kInlineTags), [&](const QString& t) {
                           return name.compare(t, Qt::CaseInsensitive) == 0;
                       })) {
                return false;
            }
            runs->markup += QStringView(text).mid(i, end - i + 1);
            i = end + 1;
            continue;
        }
        qsizetype end = text.indexOf(QLatin1Char('<'), i);
        if (end < 0)
            end = size;
        QString run;
        run.reserve(end - i);
        for (qsizetype k = i; k < end; ++k) {
            const QChar c = text.at(k);
            if (c == QLatin1Char(' ')) {
                if (k == i || k + 1 == end || text.at(k + 1) == QLatin1Char(' '))
                    return false;
                run += c;
            } else if (c == QLatin1Char('&')) {
                static const std::pair<QLatin1String, QChar> kEntities[]{{QLatin1String("&amp;"), QLatin1Char('&')},
                                                                          {QLatin1String("&lt;"), QLatin1Char('<')},
                                                                          {QLatin1String("&gt;"), QLatin1Char('>')},
                                                                          {QLatin1String("&quot;"), QLatin1Char('"')}};
                const QStringView here = QStringView(text).mid(k, end - k);
                const auto* entity = std::find_if(std::begin(kEntities), std::end(kEntities),
                                                  [&](const auto& e) { return here.startsWith(e.first); });
                if (entity == std::end(kEntities))
                    return false;
                run += entity->second;
                k += entity->first.size() - 1;
            } else if (c.isSpace() || c.unicode() < 0x20 || c == QLatin1Char('>') || breaksABlock(c)
                       || c.category() == QChar::Other_Control) {
                return false;
            } else {
                run += c;
            }
        }
        runs->markup += kRunMarker;
        runs->starts.push_back(int(runs->documentText.size()));
        runs->documentText += run;
        runs->runs.append(run);
        i = end;
    }
    return !runs->runs.isEmpty();
}

} // namespace

LabelBox::LabelBox(QLabel* label, bool growOnly, QWidget* parent)
    : QWidget(parent)
    , m_label(label)
    , m_growOnly(growOnly)
{
    label->setParent(this);
    setSizePolicy(label->sizePolicy());
}

QSize LabelBox::sizeHint() const
{
    m_reportedHintPx = m_label->isHidden() ? QSize(0, 0) : m_label->sizeHint();
    return m_reportedHintPx;
}

QSize LabelBox::minimumSizeHint() const
{
    m_reportedMinimumHintPx = m_label->isHidden() ? QSize(0, 0) : m_label->minimumSizeHint();
    return m_reportedMinimumHintPx;
}

bool LabelBox::hasHeightForWidth() const
{
    return m_label->hasHeightForWidth();
}

int LabelBox::heightForWidth(int width) const
{
    const int needed = m_label->isHidden() ? 0 : m_label->heightForWidth(width);
    return m_growOnly && width == m_fittedWidth ? std::max(needed, m_fittedHeight) : needed;
}

void LabelBox::relax()
{
    if (!m_growOnly || !m_label->hasHeightForWidth() || m_fittedWidth != width())
        return;
    const int needed = m_label->isHidden() ? 0 : m_label->heightForWidth(width());
    if (needed >= m_fittedHeight)
        return;
    m_fittedHeight = needed;
    updateGeometry();
}

void LabelBox::setCardFill(bool on)
{
    m_cardFill = on;
    setAttribute(Qt::WA_OpaquePaintEvent, on);
    // The label lies over the whole box (resizeEvent()): filled the same way, it is opaque too, and its repaints (a
    // new text on every slider step) no longer paint the box under it first (issue 16, twenty-fourth stop).
    if (auto* document = dynamic_cast<DocumentLabel*>(m_label))
        document->setCardFill(on);
    update();
}

void LabelBox::paintEvent(QPaintEvent* event)
{
    if (m_cardFill) {
        QPainter painter(this);
        painter.fillRect(event->rect(), palette::card());
    }
}

bool LabelBox::event(QEvent* event)
{
    // Posted by the label's updateGeometry(): the box has no layout of its own.
    if (event->type() == QEvent::LayoutRequest) {
        fit();
        return true;
    }
    return QWidget::event(event);
}

void LabelBox::resizeEvent(QResizeEvent* event)
{
    m_label->setGeometry(rect());
    fit();
    QWidget::resizeEvent(event);
}

void LabelBox::showEvent(QShowEvent* event)
{
    fit(); // no LayoutRequest reaches a hidden box
    QWidget::showEvent(event);
}

void LabelBox::fit()
{
    if (!m_label->hasHeightForWidth()) {
        // One line: the layout needs asking only when the hints it holds changed (none held yet: nothing to ask).
        const QSize hint = m_label->isHidden() ? QSize(0, 0) : m_label->sizeHint();
        const QSize minimum = m_label->isHidden() ? QSize(0, 0) : m_label->minimumSizeHint();
        if ((m_reportedHintPx.isValid() && hint != m_reportedHintPx)
            || (m_reportedMinimumHintPx.isValid() && minimum != m_reportedMinimumHintPx))
            updateGeometry();
        return;
    }
    const int width = this->width();
    const int needed = m_label->isHidden() ? 0 : m_label->heightForWidth(width);
    const bool grow = m_growOnly && width == m_fittedWidth;
    m_fittedHeight = grow ? std::max(m_fittedHeight, needed) : needed;
    m_fittedWidth = width;
    if (m_fittedHeight != height())
        updateGeometry();
}

/** The composed layout of a title's takeaway block (setComposesLastBlock()). */
struct DocumentLabel::Composed {
    /** A small document: the heading and two lines of the takeaway's format, for the first block and the second
     *  block's geometry at one width; kept for the last few widths asked (a layout pass asks several). */
    struct Frame {
        QTextDocument document;
        QString html;
        QFont font;
        Qt::Alignment alignment;
        int widthPx = -1;
        qreal topPx = 0;        ///< the second block's first line's top (document coordinates)
        qreal pitchPx = 0;      ///< from one line's top to the next
        qreal baselinePx = 0;   ///< from a line's top to its baseline
        qreal lineXPx = 0;      ///< the lines' left (document coordinates)
        qreal lineWidthPx = 0;  ///< the line rect's width (QTextLine::rect())
        qreal lineHeightPx = 0; ///< the line rect's height
        qreal otherPx = 0;      ///< the document's height less its second block's two lines
        QTextCharFormat takeawayFormat;
        QFont takeawayFont;
    };
    static constexpr std::size_t kFramesKept = 8;

    bool on = false;
    /** Set by the first new text after the label's first (setTextRepaintingChanges()): the texts before, laid out at
     *  start-up, are laid out by the document as before (composing them would shape every word and make a frame per
     *  width asked, for one layout each). */
    bool armed = false;
    int layoutCount = 0; ///< composedLayouts()
    // The frame last used (the current layout's: its document, heading and line geometry), for the markup, heading,
    // font, alignment and width it was found for.
    Frame* frame = nullptr;
    QString lastMarkup;
    QString lastHeading;
    // The text and width the layout below is of; valid false when text() did not qualify.
    QString text;
    int widthPx = -1;
    QFont textFont;
    Qt::Alignment textAlignment;
    bool valid = false;
    std::vector<std::unique_ptr<Frame>> frames; ///< most recently used last
    WordLayout* words = nullptr; ///< of the takeaway's font, one of layouts
    std::vector<std::unique_ptr<WordLayout>> layouts; ///< one per font met (the takeaway's, a warning's)
    QString takeaway;
    std::vector<WordLayout::Line> lines;
    qreal heightPx = 0; ///< the document's height (QTextDocument::size().height())
};

DocumentLabel::~DocumentLabel() = default;

void DocumentLabel::setComposesLastBlock(bool on)
{
    if (on && !m_composed)
        m_composed = std::make_unique<Composed>();
    if (m_composed)
        m_composed->on = on;
    update();
}

int DocumentLabel::composedLayouts() const
{
    return m_composed ? m_composed->layoutCount : 0;
}

const DocumentLabel::Composed* DocumentLabel::composedAt(int width) const
{
    if (!m_composed || !m_composed->on || !m_composed->armed || !ownsLayout() || !isRich())
        return nullptr;
    Composed& c = *m_composed;
    const QString current = text();
    if (c.text == current && c.widthPx == width && c.textFont == font() && c.textAlignment == alignment())
        return c.valid ? &c : nullptr;
    c.text = current;
    c.widthPx = width;
    c.textFont = font();
    c.textAlignment = alignment();
    c.valid = false;
    // A heading block, then one run of one format: "<div>...heading run...</div>" then markup around one run.
    TextRuns runs;
    if (!splitRuns(current, true, &runs) || runs.runs.size() != 2 || !runs.markup.startsWith(QLatin1String("<div>")))
        return nullptr;
    const qsizetype divEnd = runs.markup.indexOf(QLatin1String("</div>"));
    if (divEnd < 0 || runs.markup.indexOf(kRunMarker) > divEnd || runs.markup.indexOf(kRunMarker, divEnd) < 0
        || runs.markup.mid(divEnd).contains(QLatin1String("<br"), Qt::CaseInsensitive)
        || (alignment() & Qt::AlignHorizontal_Mask) != Qt::AlignLeft || layoutDirection() != Qt::LeftToRight
        || !WordLayout::qualifies(runs.runs.at(1)) || width <= 0)
        return nullptr;
    // The frame document: the same markup with the takeaway replaced by "x", a line separator and "x".
    Composed::Frame* frame = nullptr;
    if (c.frame && c.lastMarkup == runs.markup && c.lastHeading == runs.runs.at(0) && c.frame->widthPx == width
        && c.frame->font == font() && c.frame->alignment == alignment())
        frame = c.frame; // (a new takeaway at the same width: the frame of the last)
    QString html;
    if (!frame) {
        html = runs.markup;
        html.replace(html.indexOf(kRunMarker), 1, runs.runs.at(0).toHtmlEscaped());
        html.replace(html.indexOf(kRunMarker), 1, QStringLiteral("x"));
    }
    for (auto it = c.frames.begin(); !frame && it != c.frames.end(); ++it) {
        if ((*it)->html == html && (*it)->font == font() && (*it)->alignment == alignment()
            && (*it)->widthPx == width) {
            std::rotate(it, it + 1, c.frames.end()); // most recently used last
            frame = c.frames.back().get();
            break;
        }
    }
    if (!frame) {
        auto made = std::make_unique<Composed::Frame>();
        Composed::Frame& f = *made;
        f.html = html;
        f.font = font();
        f.alignment = alignment();
        f.widthPx = width;
        f.document.setUndoRedoEnabled(false);
        f.document.setDocumentMargin(0);
        QTextOption option = f.document.defaultTextOption();
        option.setAlignment(alignment());
        option.setWrapMode(QTextOption::WordWrap);
        f.document.setDefaultTextOption(option);
        f.document.setDefaultFont(font());
        f.document.setHtml(html);
        {
            // A second line in the takeaway's format (a line separator: "<br>" after the div makes a block).
            QTextCursor cursor(f.document.lastBlock());
            cursor.movePosition(QTextCursor::EndOfBlock);
            cursor.insertText(QString(QChar::LineSeparator) + QLatin1Char('x'), cursor.charFormat());
        }
        f.document.setTextWidth(width);
        f.document.documentLayout()->documentSize(); // (a new document lays out when first asked)
        const QTextBlock heading = f.document.begin();
        const QTextBlock takeaway = heading.next();
        if (!takeaway.isValid() || takeaway.next().isValid() || !takeaway.layout()
            || takeaway.layout()->lineCount() != 2 || !f.document.rootFrame()->childFrames().isEmpty())
            return nullptr;
        const QTextLayout* layout = takeaway.layout();
        const QTextLine first = layout->lineAt(0);
        const QTextLine second = layout->lineAt(1);
        f.topPx = layout->position().y() + first.y();
        f.lineXPx = layout->position().x() + first.x();
        f.pitchPx = second.y() - first.y();
        f.baselinePx = first.ascent();
        f.lineWidthPx = first.rect().width();
        f.lineHeightPx = first.rect().height();
        f.otherPx = f.document.size().height() - 2 * f.pitchPx;
        f.takeawayFormat = takeaway.begin().fragment().charFormat();
        f.takeawayFont = f.takeawayFormat.font().resolve(f.document.defaultFont());
        if (c.frames.size() >= Composed::kFramesKept) {
            if (c.frame == c.frames.front().get())
                c.frame = nullptr;
            c.frames.erase(c.frames.begin());
        }
        c.frames.push_back(std::move(made));
        frame = c.frames.back().get();
    }
    c.frame = frame;
    c.lastMarkup = runs.markup;
    c.lastHeading = runs.runs.at(0);
    c.words = nullptr;
    for (const std::unique_ptr<WordLayout>& layout : c.layouts)
        if (layout->font() == frame->takeawayFont)
            c.words = layout.get();
    if (!c.words) {
        c.layouts.push_back(std::make_unique<WordLayout>(frame->takeawayFont));
        c.words = c.layouts.back().get();
    }
    c.takeaway = runs.runs.at(1);
    c.lines = c.words->layout(c.takeaway, width);
    c.heightPx = frame->otherPx + qreal(c.lines.size()) * frame->pitchPx;
    ++c.layoutCount;
    c.valid = true;
    return &c;
}

DocumentLabel::DocumentLabel(QWidget* parent)
    : QLabel(parent)
{
    m_document.setUndoRedoEnabled(false);
    m_document.setDocumentMargin(0); // QLabel sets its root frame's margin to 0
    // QTextDocumentLayout emits update() once at the end of each layout pass (documentChanged()).
    connect(m_document.documentLayout(), &QAbstractTextDocumentLayout::update, this, [this] {
        if (!m_document.isEmpty())
            ++m_layoutPasses;

    });
}

int DocumentLabel::heightForWidth(int width) const
{
    if (!ownsLayout())
        return QLabel::heightForWidth(width);
    // As QLabel::sizeForWidth() without margin, indent or frame: the document's size, rounded up.
    const QMargins margins = contentsMargins();
    const int documentWidthPx = std::max(width - margins.left() - margins.right(), 0);
    if (const Composed* composed = composedAt(documentWidthPx)) {
        if (m_repaintPending && documentWidthPx == contentsRect().width())
            repaintChanges();
        return std::max(qCeil(composed->heightPx) + margins.top() + margins.bottom(), minimumHeight());
    }
    // A width asked before for this text, font and alignment: the height its layout had, without laying the text
    // out (and shaping it) again. The layouts above ask each label at a few widths, some of them more than once, in
    // one pass (the window's first show asks a floor card's title at 467, 403, 377, 467, 377, 410 and 377 px); each
    // layout at a new width shapes the whole text again (issue 16, eighteenth stop in docs/performance.md). Not while
    // a new text's repaint waits for its layout at the label's width (document() runs it).
    if (!m_repaintPending && m_text == text() && m_font == font() && m_alignment == alignment()) {
        for (const auto& [knownWidthPx, heightPx] : m_heightsForWidths)
            if (knownWidthPx == documentWidthPx)
                return std::max(qCeil(heightPx) + margins.top() + margins.bottom(), minimumHeight());
    }
    const QTextDocument& doc = document(documentWidthPx);
    const qreal heightPx = doc.size().height();
    if (m_heightsForWidths.size() >= kHeightsForWidthsKept)
        m_heightsForWidths.erase(m_heightsForWidths.begin());
    m_heightsForWidths.emplace_back(documentWidthPx, heightPx);
    return std::max(qCeil(heightPx) + margins.top() + margins.bottom(), minimumHeight());
}

void DocumentLabel::setCardFill(bool on)
{
    m_cardFill = on;
    setAttribute(Qt::WA_OpaquePaintEvent, on);
    update();
}

void DocumentLabel::paintEvent(QPaintEvent* event)
{
    if (!ownsLayout() || hasSelectedText() || hasFocus()) {
        if (m_cardFill) {
            QPainter painter(this);
            painter.fillRect(event->rect(), palette::card());
        }
        QLabel::paintEvent(event);
        return;
    }
    // As QLabel::paintEvent() for a text label: the document at the contents rect, moved down by
    // the vertical alignment, clipped to it, text in the label's foreground colour.
    const QRect contents = contentsRect();
    const Composed* composed = composedAt(contents.width());
    const QTextDocument& doc = composed ? composed->frame->document : document(contents.width());
    const QRect area = QRectF(contents.x(), contents.y() + verticalOffset(contents), contents.width(), contents.height()).toAlignedRect();
    QAbstractTextDocumentLayout::PaintContext context;
    // Lines outside the repainted rect are not drawn (QTextLayout::draw() skips a line whose box misses the clip);
    // a line height more above and below keeps lines whose glyphs reach into the rect from outside their box.
    const int reachPx = QFontMetrics(font()).height();
    context.clip = QRectF(event->rect().translated(-area.topLeft()).adjusted(0, -reachPx, 0, reachPx));
    QStyleOption option;
    option.initFrom(this);
    context.palette = option.palette;
    if (foregroundRole() != QPalette::Text && isEnabled())
        context.palette.setColor(QPalette::Text, context.palette.color(foregroundRole()));
    QPainter painter(this);
    if (m_cardFill) // as LabelBox::paintEvent() fills under the label (setCardFill())
        painter.fillRect(event->rect(), palette::card());
    painter.translate(area.topLeft());
    painter.setClipRect(QRect(QPoint(0, 0), area.size()));
    if (!composed) {
        doc.documentLayout()->draw(&painter, context);
        return;
    }
    // The heading block as QTextDocumentLayout draws it (its QTextLayout, in the palette's text colour), then the
    // takeaway's lines from the word layout at the places the document gives its lines (setComposesLastBlock()).
    painter.setPen(context.palette.color(QPalette::Text));
    const QTextLayout* heading = doc.begin().layout();
    const QRectF headingBox = heading->boundingRect().translated(heading->position());
    if (headingBox.bottom() >= context.clip.top() && headingBox.top() <= context.clip.bottom())
        heading->draw(&painter, QPointF(0, 0), {}, context.clip);
    // The takeaway's own colour where its format has one (a warning in its place), as QTextLine::draw() sets it.
    const Composed::Frame& frame = *composed->frame;
    const QBrush foreground = frame.takeawayFormat.foreground();
    if (foreground.style() != Qt::NoBrush)
        painter.setPen(QPen(foreground, 0));
    for (int i = 0; i < int(composed->lines.size()); ++i) {
        const qreal top = frame.topPx + i * frame.pitchPx;
        if (top > context.clip.bottom() || top + frame.lineHeightPx < context.clip.top())
            continue;
        composed->words->drawLine(&painter, i, QPointF(frame.lineXPx, top + frame.baselinePx));
    }
}

qreal DocumentLabel::verticalOffset(const QRect& contents) const
{
    const Composed* composed = composedAt(contents.width());
    const qreal height = composed ? composed->heightPx : m_document.documentLayout()->documentSize().height();
    if (alignment() & Qt::AlignVCenter)
        return std::max((contents.height() - height) / 2, qreal(0));
    if (alignment() & Qt::AlignBottom)
        return std::max(contents.height() - height, qreal(0));
    return 0;
}

std::vector<DocumentLabel::PaintedLine> DocumentLabel::paintedLines() const
{
    const QRect contents = contentsRect();
    const Composed* composed = composedAt(contents.width());
    const QTextDocument& doc = composed ? composed->frame->document : document(contents.width());
    const QTextFrame* root = doc.rootFrame();
    if (!root->childFrames().isEmpty() || root->frameFormat().background().style() != Qt::NoBrush)
        return {};
    const int top = QRectF(contents.x(), contents.y() + verticalOffset(contents), contents.width(), contents.height())
                        .toAlignedRect()
                        .top();
    std::vector<PaintedLine> lines;
    for (QTextBlock block = doc.begin(); block.isValid(); block = composed ? QTextBlock() : block.next()) {
        const QTextBlockFormat blockFormat = block.blockFormat();
        const QTextLayout* layout = block.layout();
        if (!layout || block.textList() || !block.isVisible() || blockFormat.background().style() != Qt::NoBrush
            || blockFormat.hasProperty(QTextFormat::BlockTrailingHorizontalRulerWidth))
            return {}; // drawn by more than its lines' glyphs
        std::vector<std::pair<int, QTextCharFormat>> runs; // (first character in the block, format)
        for (QTextBlock::iterator it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid())
                continue;
            if (fragment.charFormat().isImageFormat())
                return {};
            runs.emplace_back(fragment.position() - block.position(), fragment.charFormat());
        }
        const QPointF origin = layout->position() + QPointF(contents.x(), top);
        const QString text = block.text();
        for (int i = 0; i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            PaintedLine painted;
            painted.rect = line.rect().translated(origin);
            painted.ascent = line.ascent();
            painted.naturalX = line.naturalTextRect().x();
            painted.naturalWidth = line.naturalTextWidth();
            painted.text = text.mid(line.textStart(), line.textLength());
            painted.block = block.blockNumber();
            painted.line = i;
            const int start = line.textStart();
            const int end = start + line.textLength();
            for (std::size_t r = 0; r < runs.size(); ++r) {
                const int runEnd = r + 1 < runs.size() ? runs[r + 1].first : int(text.size());
                if (runs[r].first < end && runEnd > start)
                    painted.formats.emplace_back(std::max(runs[r].first, start) - start, runs[r].second);
            }
            lines.push_back(std::move(painted));
        }
    }
    if (composed) { // the takeaway's lines (setComposesLastBlock()), as the document would have them
        const Composed::Frame& frame = *composed->frame;
        for (int i = 0; i < int(composed->lines.size()); ++i) {
            const WordLayout::Line& line = composed->lines[std::size_t(i)];
            PaintedLine painted;
            painted.rect = QRectF(frame.lineXPx, frame.topPx + i * frame.pitchPx, frame.lineWidthPx, frame.lineHeightPx)
                               .translated(contents.x(), top);
            painted.ascent = frame.baselinePx;
            painted.naturalX = frame.lineXPx;
            painted.naturalWidth = line.naturalWidthPx;
            painted.text = composed->takeaway.mid(line.start, line.length);
            painted.block = 1;
            painted.line = i;
            painted.formats.emplace_back(0, frame.takeawayFormat);
            lines.push_back(std::move(painted));
        }
    }
    return lines;
}

namespace {

/** How many characters from the start @p aText and @p bText share, each with the same format in @p aFormats and @p bFormats
 *  (runs as (first character, format)). */
int sharedPrefix(const QString& aText, const std::vector<std::pair<int, QTextCharFormat>>& aFormats, const QString& bText,
                 const std::vector<std::pair<int, QTextCharFormat>>& bFormats)
{
    int shared = 0;
    const int length = int(std::min(aText.size(), bText.size()));
    while (shared < length && aText.at(shared) == bText.at(shared))
        ++shared;
    // Cut at the first run whose start or format differs.
    for (std::size_t r = 0; r < aFormats.size() && r < bFormats.size(); ++r) {
        const int start = aFormats[r].first;
        if (start >= shared)
            break;
        if (start != bFormats[r].first || aFormats[r].second != bFormats[r].second)
            return std::min(start, bFormats[r].first);
        const int aEnd = r + 1 < aFormats.size() ? aFormats[r + 1].first : int(aText.size());
        const int bEnd = r + 1 < bFormats.size() ? bFormats[r + 1].first : int(bText.size());
        if (aEnd != bEnd)
            shared = std::min(shared, std::min(aEnd, bEnd));
    }
    return shared;
}

/** How many characters at the end @p aText and @p bText share, each with the same format in @p aFormats and
 *  @p bFormats (runs as (first character, format)); no more than either text less @p prefix (characters shared at the
 *  start, sharedPrefix()), so that the two never overlap. */
int sharedSuffix(const QString& aText, const std::vector<std::pair<int, QTextCharFormat>>& aFormats, const QString& bText,
                 const std::vector<std::pair<int, QTextCharFormat>>& bFormats, int prefix)
{
    const int aSize = int(aText.size());
    const int bSize = int(bText.size());
    const int length = std::max(std::min(aSize, bSize) - prefix, 0);
    int shared = 0;
    while (shared < length && aText.at(aSize - 1 - shared) == bText.at(bSize - 1 - shared))
        ++shared;
    // Walk the runs back from the ends: each stretch of the suffix must lie in runs of the same format.
    int a = int(aFormats.size()) - 1;
    int b = int(bFormats.size()) - 1;
    int covered = 0; // characters from the end whose formats matched
    while (covered < shared) {
        if (a < 0 || b < 0 || aFormats[std::size_t(a)].second != bFormats[std::size_t(b)].second)
            return covered;
        const int aReach = aSize - aFormats[std::size_t(a)].first; // the run's first character, counted from the end
        const int bReach = bSize - bFormats[std::size_t(b)].first;
        covered = std::min(aReach, bReach);
        if (aReach == covered)
            --a;
        if (bReach == covered)
            --b;
    }
    return shared;
}

/** True when @p widget's rect cut by each ancestor's is empty (a numbers value scrolled out of view): no paint event
 *  can reach it. As QWidget::visibleRegion() is empty when its clip rect is, without the region and the siblings it
 *  subtracts. */
bool clippedOutByAncestors(const QWidget* widget)
{
    QRect rect = widget->rect();
    for (; !widget->isWindow() && widget->parentWidget(); widget = widget->parentWidget()) {
        rect = rect.translated(widget->pos()) & widget->parentWidget()->rect();
        if (rect.isEmpty())
            return true;
    }
    return rect.isEmpty();
}

/** The event a DocumentLabel posts itself to repaint a new text's changes if no layout did first. */
const QEvent::Type kRepaintChangesEvent = QEvent::Type(QEvent::registerEventType());

} // namespace

std::vector<DocumentLabel::PaintedLine> DocumentLabel::shownLines() const
{
    const QRect contents = contentsRect();
    if (m_linesText == text() && m_linesFont == font() && m_linesAlignment == alignment() && m_linesContents == contents
        && !m_lines.empty())
        return m_lines;
    return paintedLines();
}

void DocumentLabel::setTextRepaintingChanges(const QString& text)
{
    if (text == this->text())
        return;
    if (!m_repaintPending) {
        // A label clipped out by its ancestors (a numbers value scrolled out of view) gets no paint event: its new text
        // is set whole, without noting its lines and comparing them with the new text's (issue 16, twenty-seventh stop
        // in docs/performance.md). QLabel's update() of the whole label paints nothing there either; scrolled into view,
        // the label paints from its document as laid out by its box's fit().
        if (isVisible() && updatesEnabled() && ownsLayout() && !hasSelectedText() && !hasFocus() && !clippedOutByAncestors(this))
            m_shownBefore = shownLines();
        if (m_shownBefore.empty()) {
            setText(text);
            return;
        }
        m_repaintPending = true;
        QCoreApplication::postEvent(this, new QEvent(kRepaintChangesEvent));
    }
    if (m_composed)
        m_composed->armed = true; // a new text after the first: composed from here on (setComposesLastBlock())
    // QLabel::setText() repaints the whole contents rect: held back here (as setUpdatesEnabled(false) holds updates
    // back, without the whole-widget update() that setUpdatesEnabled(true) then posts); repaintChanges() repaints.
    setAttribute(Qt::WA_UpdatesDisabled, true);
    setText(text);
    setAttribute(Qt::WA_UpdatesDisabled, false);
}

bool DocumentLabel::event(QEvent* event)
{
    if (event->type() == kRepaintChangesEvent) {
        if (m_repaintPending)
            repaintChanges(); // no layout at the label's width came first
        return true;
    }
    if (m_selectableOnFirstUse) {
        switch (event->type()) {
        case QEvent::FocusIn: // from code
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonDblClick:
        case QEvent::ContextMenu:
            // QLabel makes its text control here and sets Qt::ClickFocus, then handles the event with it; unless its
            // flags were set through QLabel since.
            m_selectableOnFirstUse = false;
            if (QLabel::textInteractionFlags() == Qt::LinksAccessibleByMouse) {
                QLabel::setTextInteractionFlags(Qt::TextSelectableByMouse);
                // The focus a click gives a Qt::ClickFocus widget (QApplication gives it before the press arrives,
                // by the policy the label had then: none).
                if (event->type() != QEvent::FocusIn && event->type() != QEvent::ContextMenu && isEnabled())
                    setFocus(Qt::MouseFocusReason);
            }
            break;
        default:
            break;
        }
    }
    return QLabel::event(event);
}

void DocumentLabel::setTextSelectableByMouseOnFirstUse()
{
    if (QLabel::textInteractionFlags() == Qt::TextSelectableByMouse || hasFocus()) {
        QLabel::setTextInteractionFlags(Qt::TextSelectableByMouse);
        return;
    }
    // QLabel's default flags (links by mouse) and no focus policy: Qt 6.4's QLabel makes its control for a plain text that
    // is selectable or can take focus (Qt::ClickFocus, which QLabel sets with the flags, comes with them on first use).
    QLabel::setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    setFocusPolicy(Qt::NoFocus);
    m_selectableOnFirstUse = true;
}

Qt::TextInteractionFlags DocumentLabel::textInteractionFlags() const
{
    // QLabel's flags stay Qt::LinksAccessibleByMouse while waiting, unless set since through QLabel.
    if (m_selectableOnFirstUse && QLabel::textInteractionFlags() == Qt::LinksAccessibleByMouse)
        return Qt::TextSelectableByMouse;
    return QLabel::textInteractionFlags();
}

bool DocumentLabel::hasTextControl() const
{
    for (const QObject* child : children())
        if (child->inherits("QWidgetTextControl"))
            return true;
    return false;
}

void DocumentLabel::repaintChanges() const
{
    m_repaintPending = false;
    const std::vector<PaintedLine> before = std::move(m_shownBefore);
    m_shownBefore.clear();
    auto* self = const_cast<DocumentLabel*>(this);
    const QRect contents = contentsRect();
    m_lines = ownsLayout() ? paintedLines() : std::vector<PaintedLine>();
    m_linesText = text();
    m_linesFont = font();
    m_linesAlignment = alignment();
    m_linesContents = contents;
    const std::vector<PaintedLine>& after = m_lines;
    if (after.empty()) {
        self->update(contents);
        return;
    }
    const bool left = (alignment() & Qt::AlignHorizontal_Mask) == Qt::AlignLeft && layoutDirection() == Qt::LeftToRight;
    QRegion region;
    // From @p fromX to the right edge, a third of the line's height more above and below for glyphs that reach
    // outside their line's box.
    auto repaint = [&](const PaintedLine& line, qreal fromX, qreal toX = std::numeric_limits<qreal>::max()) {
        const qreal reach = std::ceil(line.rect.height() / 3);
        toX = std::min(toX, qreal(contents.right() + 1));
        const QRectF strip(fromX, line.rect.top() - reach, toX - fromX, line.rect.height() + 2 * reach);
        region += strip.toAlignedRect() & contents;
    };
    const std::size_t count = std::max(before.size(), after.size());
    for (std::size_t i = 0; i < count; ++i) {
        if (i >= after.size()) {
            repaint(before[i], contents.left());
            continue;
        }
        const PaintedLine& now = after[i];
        if (i >= before.size()) {
            repaint(now, contents.left());
            continue;
        }
        const PaintedLine& was = before[i];
        const bool samePlace = was.rect == now.rect && was.ascent == now.ascent && was.naturalX == now.naturalX;
        if (samePlace && was.text == now.text && was.formats == now.formats)
            continue; // the same glyphs at the same places
        if (!samePlace || !left) {
            repaint(was, contents.left());
            repaint(now, contents.left());
            continue;
        }
        const int shared = sharedPrefix(was.text, was.formats, now.text, now.formats);
        // The shared characters are shaped and placed alike in both texts, but the last of them may be kerned
        // against the first differing one: the repaint starts at that last one, less the reach for its left bearing.
        // Where character @p at of the line starts (px in the label): from its layout, or for a composed takeaway line
        // the start of its word (@p before) or of the next word (not @p before), which bound it.
        const Composed* composed = composedAt(contents.width());
        auto xOf = [&](int at, bool before) {
            if (composed && now.block == 1) {
                const int position = composed->lines[std::size_t(now.line)].start + at;
                const qreal x = before ? composed->words->wordStartBefore(now.line, position)
                                       : composed->words->wordStartAfter(now.line, position);
                return x + now.rect.left();
            }
            const QTextDocument& doc = composed ? composed->frame->document : m_document;
            const QTextLayout* layout = doc.findBlockByNumber(now.block).layout();
            const QTextLine line = layout->lineAt(now.line);
            return line.cursorToX(line.textStart() + at) + now.rect.left() - line.x();
        };
        qreal fromX = contents.left();
        if (shared > 1) {
            const qreal x = xOf(shared - 1, true);
            fromX = std::max(qreal(contents.left()), x - std::ceil(now.rect.height() / 3));
        }
        // The shared characters at the end sit where they did when the line's glyphs have the same advance (the glyphs'
        // places are sums of advances in QFixed, so exactly): with left alignment the end keeps its x, and the shared
        // tail, shaped alike, its places. The repaint stops two characters into the tail (a ligature or kerning pair
        // across the change reaches no further), plus the reach for its right bearing.
        qreal toX = contents.right() + 1;
        if (was.naturalWidth == now.naturalWidth) {
            const int suffix = sharedSuffix(was.text, was.formats, now.text, now.formats, shared);
            const int stop = int(now.text.size()) - suffix + 2;
            if (suffix > 2 && stop < int(now.text.size())) {
                const qreal x = xOf(stop, false);
                toX = std::min(toX, x + std::ceil(now.rect.height() / 3));
            }
        }
        repaint(now, fromX, toX);
    }
    ++m_partialRepaints;
    if (!region.isEmpty())
        self->update(region);
}

bool DocumentLabel::keepsShapedGlyphs() const
{
    if (m_document.isEmpty())
        return false;
    for (QTextBlock block = m_document.begin(); block.isValid(); block = block.next())
        if (!block.layout() || !block.layout()->cacheEnabled())
            return false;
    return true;
}

bool DocumentLabel::isRich() const
{
    return textFormat() == Qt::RichText || (textFormat() == Qt::AutoText && Qt::mightBeRichText(text()));
}

bool DocumentLabel::ownsLayout() const
{
    // QLabel keeps a document (the one this class mirrors) for rich text and for selectable text.
    const bool document = isRich() || (textInteractionFlags() & (Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard));
    return document && textFormat() != Qt::MarkdownText && wordWrap() && margin() == 0 && indent() < 0
        && frameWidth() == 0 && pixmap().isNull();
}

QSize DocumentLabel::sizeHint() const
{
    ensurePolished(); // as QLabel: a style may set the font
    if (!ownsLayout() || minimumWidth() > 0 || text().isEmpty()) // (QLabel measures no empty text)
        return QLabel::sizeHint();
    measureHints();
    return m_hintPx.expandedTo(minimumSize());
}

QSize DocumentLabel::minimumSizeHint() const
{
    ensurePolished();
    if (!ownsLayout() || minimumWidth() > 0 || text().isEmpty())
        return QLabel::minimumSizeHint();
    measureHints();
    // QLabel::minimumSizeHint(): each part of the size for a width, the height no more than sizeHint()'s.
    const QSize minimum = m_minimumHintPx.expandedTo(minimumSize());
    return QSize(minimum.width(), std::min(minimum.height(), m_hintPx.expandedTo(minimumSize()).height()));
}

int DocumentLabel::adjustSizeFirstWidthPx() const
{
    // Asked by both hints of every new text; the advance depends on the font and the resolution it is measured at
    // (as PlainLabel::layoutFor() keys its layout), not on the text.
    const QFont labelFont = font();
    const qreal dpi = QFontMetricsF(labelFont).fontDpi();
    if (m_adjustWidthPx < 0 || m_adjustWidthDpi != dpi || m_adjustWidthFont != labelFont) {
        m_adjustWidthPx = QFontMetrics(labelFont).horizontalAdvance(QLatin1Char('x')) * 80;
        m_adjustWidthFont = labelFont;
        m_adjustWidthDpi = dpi;
        ++m_adjustWidthMeasurements;
    }
    return m_adjustWidthPx;
}

void DocumentLabel::measureHints() const
{
    const bool newText = m_text != text() || m_font != font() || m_alignment != alignment();
    const QMargins margins = contentsMargins();
    const QSize marginsPx(margins.left() + margins.right(), margins.top() + margins.bottom());
    if (!newText && marginsPx == m_hintMarginsPx)
        return; // measured for this text, font, alignment and margins (minimumSizeHint() after sizeHint())
    // QTextDocument::adjustSize()'s first width: 80 x's of the font (and its first layout, when the text is new).
    const int widestPx = adjustSizeFirstWidthPx();
    if (newText) {
        if (!editInPlace(widestPx)) { // both reset m_hintMarginsPx
            emptyAtWidth(widestPx);
            syncDocument();
        }
        noteLayout();
    }
    if (marginsPx == m_hintMarginsPx)
        return;
    // QLabelPrivate::sizeForWidth() for a word-wrapped text label without margin, indent or frame:
    // -1 (the golden-ratio shape of QTextDocument::adjustSize()), QWIDGETSIZE_MAX (one line), 0
    // (the widest word), each the document's size rounded up. Here in the order that lays the text
    // out least: adjustSize()'s first width, which also gives the one-line height when no line
    // wraps there; the widest word; adjustSize()'s remaining widths, ending at the shape's own
    // width, where a short text is on one line and needs no new layout to be painted at a wider one.
    auto ceiled = [this](const QSize& extraPx) {
        const QSizeF size = m_document.size();
        return QSize(qCeil(size.width()), qCeil(size.height())) + extraPx;
    };
    if (m_document.textWidth() != widestPx) // else laid out there since it was filled
        setDocumentWidth(widestPx);
    const QSizeF firstSize = m_document.size();
    int oneLineHeightPx = ceiled(marginsPx).height();
    if (!m_unwrapped) { // a line wrapped at 80 x's: lay it out on one line
        setDocumentWidth(std::max(QWIDGETSIZE_MAX - marginsPx.width(), 0));
        oneLineHeightPx = ceiled(marginsPx).height();
    }
    setDocumentWidth(0);
    m_minimumHintPx = QSize(ceiled(marginsPx).width(), oneLineHeightPx);
    // The rest of QTextDocument::adjustSize() (Qt 6.4), from the size at the first width.
    if (firstSize.width() != 0) {
        int shapePx = int(integerSqrt(uint(5 * firstSize.height() * firstSize.width() / 3)));
        setDocumentWidth(std::min(shapePx, widestPx));
        const QSizeF size = m_document.size();
        if (shapePx * 3 < 5 * size.height()) {
            shapePx = int(integerSqrt(uint(2 * size.height() * size.width())));
            setDocumentWidth(std::min(shapePx, widestPx));
        }
    }
    // adjustSize() ends laid out at the widest line of the last layout (idealWidth()): every line fits there as it did,
    // so the breaks, the lines and the height are the same, and the size is that width by the same height. Taken
    // from the last layout without laying the text out (and shaping it) a last time (issue 16, eighteenth stop in
    // docs/performance.md); a layout whose lines do not all fit its width (a word wider than it) is laid out again.
    const qreal idealPx = m_document.idealWidth();
    if (idealPx <= m_document.textWidth()) {
        m_hintPx = QSize(qCeil(idealPx), qCeil(m_document.size().height())) + marginsPx;
    } else {
        setDocumentWidth(idealPx);
        m_hintPx = ceiled(marginsPx);
    }
    m_hintMarginsPx = marginsPx;
}

void DocumentLabel::setDocumentWidth(qreal width) const
{
    m_document.setTextWidth(width); // lays the text out again even at the same width
    noteLayout();
}

void DocumentLabel::emptyAtWidth(int width) const
{
    if (m_document.textWidth() == width && m_settingsApplied && m_font == font() && m_alignment == alignment())
        return; // syncDocument() replaces the old text at this width in one pass, applying no setting
    m_runsValid = false;
    // A document that holds no text yet (a new label's first text) is left as it is: QTextDocument::clear() rebuilt its
    // root frame and formats and laid it out for nothing, 34 K instructions a label, 1.4 M before the first frame
    // (issue 16, thirtieth stop in docs/performance.md).
    if (!m_document.isEmpty()) {
        m_document.clear();
        ++m_documentClears;
    }
    m_document.setTextWidth(width); // a pass of the empty document
}

void DocumentLabel::noteLayout() const
{
    m_unwrapped = !m_document.isEmpty() && !wrapsALine(m_document);
    if (m_unwrapped)
        m_unwrappedWidthPx = m_document.idealWidth();
}

bool DocumentLabel::layoutHoldsAt(int width) const
{
    if (m_document.textWidth() == width)
        return true;
    // Left-aligned lines that did not wrap start at 0 and break where the text does at any width that
    // holds the widest of them: the same layout, the same height, the same pixels.
    const bool left = (m_alignment & Qt::AlignHorizontal_Mask) == Qt::AlignLeft && layoutDirection() == Qt::LeftToRight;
    return left && m_unwrapped && width > qCeil(m_unwrappedWidthPx);
}

void DocumentLabel::syncDocument() const
{
    if (m_text == text() && m_font == font() && m_alignment == alignment())
        return;
    const bool settingsChanged = !m_settingsApplied || m_font != font() || m_alignment != alignment();
    m_text = text();
    m_font = font();
    m_alignment = alignment();
    m_hintMarginsPx = QSize(-1, -1);
    m_heightsForWidths.clear();
    m_unwrapped = false;
    // Filled with no page size, which QTextDocumentLayout does not lay out (it drops the blocks' layouts and
    // returns), then laid out once at the width it had, each block's QTextLayout keeping its shaped glyphs
    // (setCacheEnabled): by default QTextLayout::endLayout() frees them, and the paint that follows every new
    // text shaped the whole text again (HarfBuzz), as did every later pass at another width (issue 16, twelfth
    // stop in docs/performance.md).
    const QSizeF pageSize = m_document.pageSize();
    m_document.setPageSize(QSizeF(0, 0));
    // Each setting lays the document out again: applied only when changed (a new text of the same
    // font and alignment, a value or a takeaway, sets none). setHtml() and setPlainText() empty the
    // document first themselves, keeping the default font and text option.
    m_runsValid = false;
    if (settingsChanged) {
        if (!m_document.isEmpty()) {
            m_document.clear(); // the settings below then re-lay out an empty document, not the old text
            ++m_documentClears;
        }
        QTextOption option = m_document.defaultTextOption();
        option.setAlignment(m_alignment);
        option.setWrapMode(QTextOption::WordWrap);
        m_document.setDefaultTextOption(option);
        m_document.setDefaultFont(m_font);
        m_settingsApplied = true;
    }
    if (isRich())
        m_document.setHtml(m_text);
    else
        m_document.setPlainText(m_text);
    ++m_documentFills;
    noteRuns();
    for (QTextBlock block = m_document.begin(); block.isValid(); block = block.next())
        if (QTextLayout* layout = block.layout())
            layout->setCacheEnabled(true);
    m_document.setPageSize(pageSize); // the one layout pass of the new text
}

void DocumentLabel::noteRuns() const
{
    TextRuns runs;
    m_runsRich = isRich();
    m_runsValid = splitRuns(m_text, m_runsRich, &runs) && m_document.toRawText() == runs.documentText;
    if (!m_runsValid)
        return;
    m_runsMarkup = std::move(runs.markup);
    m_runs = std::move(runs.runs);
    m_runStarts = std::move(runs.starts);
}

bool DocumentLabel::editInPlace(int width) const
{
    if (!m_runsValid || !m_settingsApplied || m_font != font() || m_alignment != alignment() || isRich() != m_runsRich)
        return false;
    const QString newText = text();
    TextRuns runs;
    if (!splitRuns(newText, m_runsRich, &runs) || runs.markup != m_runsMarkup || runs.runs.size() != m_runs.size())
        return false;
    // Each changed run's differing middle: [first, oldEnd) of the old run replaced by [first, newEnd) of the new.
    struct Edit {
        int run, first, oldEnd, newEnd;
    };
    std::vector<Edit> edits;
    for (int r = 0; r < int(m_runs.size()); ++r) {
        const QString& was = m_runs.at(r);
        const QString& now = runs.runs.at(r);
        if (was == now)
            continue;
        const int shorter = int(std::min(was.size(), now.size()));
        int first = 0;
        while (first < shorter && was.at(first) == now.at(first))
            ++first;
        int tail = 0;
        while (tail < shorter - first && was.at(was.size() - 1 - tail) == now.at(now.size() - 1 - tail))
            ++tail;
        const Edit edit{r, first, int(was.size()) - tail, int(now.size()) - tail};
        edits.push_back(edit); // (no run holds a line break: the same blocks)
    }
    m_text = newText;
    m_hintMarginsPx = QSize(-1, -1);
    m_heightsForWidths.clear();
    m_unwrapped = false;
    // At the document's width the edit lays out only the blocks it changed, once, at the end of the edit block (an
    // unchanged block keeps its layout and its shaped glyphs); at another width, as syncDocument(): edited with no
    // page size (no layout), then laid out once at the new width.
    const bool atWidth = m_document.textWidth() == width;
    if (!atWidth)
        m_document.setPageSize(QSizeF(0, 0));
    QTextCursor cursor(&m_document);
    cursor.beginEditBlock();
    m_blocksEditedLast.clear();
    for (auto it = edits.rbegin(); it != edits.rend(); ++it) { // last first: the earlier runs keep their places
        const int start = m_runStarts[std::size_t(it->run)];
        cursor.setPosition(start + 1);
        const QTextCharFormat format = cursor.charFormat(); // the run's: that of its first character
        if (m_blocksEditedLast.empty() || m_blocksEditedLast.back() != cursor.blockNumber())
            m_blocksEditedLast.push_back(cursor.blockNumber());
        cursor.setPosition(start + it->first);
        cursor.setPosition(start + it->oldEnd, QTextCursor::KeepAnchor);
        const QString inserted = runs.runs.at(it->run).mid(it->first, it->newEnd - it->first);
        if (inserted.isEmpty())
            cursor.removeSelectedText();
        else
            cursor.insertText(inserted, format);
    }
    const bool same = m_document.toRawText() == runs.documentText;
    cursor.endEditBlock();
    if (!atWidth) {
        for (QTextBlock block = m_document.begin(); block.isValid(); block = block.next())
            if (QTextLayout* layout = block.layout())
                layout->setCacheEnabled(true);
        m_document.setPageSize(QSizeF(width, -1)); // as setTextWidth(): the one layout pass of the new text
    }
    if (!same) { // not expected (the runs matched the document's text): filled instead
        m_runsValid = false;
        m_text = QString(); // syncDocument() fills
        return false;
    }
    m_runs = std::move(runs.runs);
    m_runStarts = std::move(runs.starts);
    ++m_editsInPlace;
    return true;
}

const QTextDocument& DocumentLabel::document(int width) const
{
    if (m_text != text() || m_font != font() || m_alignment != alignment()) {
        if (!editInPlace(width)) {
            emptyAtWidth(width); // the text then lays out once, at this width
            syncDocument();
        }
        noteLayout();
    } else if (!layoutHoldsAt(width)) {
        setDocumentWidth(width);
    }
    // A new text's layout at the label's width: what setTextRepaintingChanges() waits for.
    if (m_repaintPending && width == contentsRect().width())
        repaintChanges();
    return m_document;
}

PlotPanel::PlotPanel(const QString& heading, const QString& stem, const QString& formulaToolTip, QWidget* parent)
    : QFrame(parent)
    , m_heading(heading)
    , m_formulaToolTip(formulaToolTip)
{
    setObjectName(stem + QStringLiteral("Panel"));
    makeCard(this); // painted, not a style sheet: no style-sheet polish of the card and every widget on it

    m_title = new DocumentLabel(this);
    m_title->setObjectName(stem + QStringLiteral("Title"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setToolTip(formulaToolTip);
    // The colour through the palette, as a style sheet "QLabel { color: ... }" set it (applyTheme() maps
    // both): a label with a style sheet of its own is re-polished when the box below takes it.
    QPalette titlePalette = m_title->palette();
    titlePalette.setColor(QPalette::WindowText, palette::text());
    titlePalette.setColor(QPalette::Text, palette::text());
    m_title->setPalette(titlePalette);
    m_title->setAccessibleName(heading);
    m_title->setComposesLastBlock(true); // the takeaway from words shaped once (issue 16, h16ax)
    m_titleBox = new LabelBox(m_title, true, this);
    m_titleBox->setCardFill(true);
    m_titleBox->setObjectName(stem + QStringLiteral("TitleBox"));

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(stem + QStringLiteral("Plot"));
    m_plot->setAccessibleName(heading + tr(" plot"));
    plotkit::setupPlot(m_plot);
    // Hover read-out, zoom and pan, context menu; the formulas under "Show formula" (and on the title's
    // tool tip: on the plot a tool tip would cover the read-out).
    m_interaction = PlotInteraction::install(m_plot, formulaToolTip);
    m_plot->installEventFilter(this); // eventFilter(): a resize replot drops the queued one
    // Legend rows follow the width; labels flip to stay inside once the layout is final.
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { plotkit::fitLegend(m_plot); });
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] { plotkit::fitLabels(m_plot); });

    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(10, 8, 10, 6);
    m_layout->setSpacing(4);
    m_layout->addWidget(m_titleBox);
    m_layout->addWidget(m_plot, 1);

    setTakeaway(QString());
}

void PlotPanel::watchCurrentPoint(QCPGraph* marker, std::function<QString(double, double)> describe)
{
    if (!m_offScaleNote) {
        m_offScaleNote = new QCPItemText(m_plot);
        m_offScaleNote->setObjectName(objectName().chopped(5) + QStringLiteral("OffScaleNote")); // "<stem>OffScaleNote"
        m_offScaleNote->setClipToAxisRect(true);
        m_offScaleNote->position->setType(QCPItemPosition::ptAxisRectRatio);
        // Bottom right: below the curves, which rise to the right on every floor plot.
        m_offScaleNote->position->setCoords(0.99, 0.97);
        m_offScaleNote->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        m_offScaleNote->setTextAlignment(Qt::AlignRight);
        m_offScaleNote->setColor(palette::axis());
        QColor fill = palette::card();
        fill.setAlpha(220);
        m_offScaleNote->setBrush(QBrush(fill));
        m_offScaleNote->setPadding(QMargins(4, 2, 4, 2));
        QFont font = m_offScaleNote->font();
        font.setPointSizeF(std::max(6.0, font.pointSizeF() - 1.0));
        m_offScaleNote->setFont(font);
        m_offScaleNote->setVisible(false);
        connect(m_plot, &QCustomPlot::beforeReplot, this, &PlotPanel::noteOffScalePoints);
    }
    m_watched.push_back({marker, std::move(describe)});
}

void PlotPanel::noteOffScalePoints()
{
    QStringList off;
    auto inside = [](const QCPAxis* axis, double v) {
        return std::isfinite(v) && axis->range().contains(v) && (axis->scaleType() != QCPAxis::stLogarithmic || v > 0);
    };
    for (const WatchedPoint& w : m_watched) {
        if (w.marker->data()->isEmpty())
            continue;
        const auto point = w.marker->data()->constBegin();
        if (!inside(w.marker->keyAxis(), point->key) || !inside(w.marker->valueAxis(), point->value))
            off << w.describe(point->key, point->value);
    }
    // One line each under the heading: on one line the note ran past the left edge of a 1,280-px window's plots and was
    // cut ("ent point off scale: S = ...": new-user trial, stop 32).
    const QString text = off.isEmpty() ? QString() : tr("current point off scale:\n%1").arg(off.join(QLatin1Char('\n')));
    if (m_offScaleNote->text() != text)
        m_offScaleNote->setText(text);
    if (m_offScaleNote->visible() == off.isEmpty())
        m_offScaleNote->setVisible(!off.isEmpty());
}

void PlotPanel::keepForReadout(const model::Scenario& scenario)
{
    m_readoutScenario = scenario;
    m_hasReadoutScenario = true;
}

void PlotPanel::replotNow()
{
    // A plot never laid out (the window not shown yet) replots in full on its first Resize, at the size it is
    // shown at (eventFilter() then drops the queued replot): drawn now, at 100 x 30 px, it would be drawn twice.
    if (m_plot->testAttribute(Qt::WA_PendingResizeEvent))
        return;
    QCoreApplication::sendPostedEvents(m_plot, QEvent::MetaCall);
}

bool PlotPanel::eventFilter(QObject* watched, QEvent* event)
{
    // QCustomPlot::resizeEvent() replots at once (rpQueuedRefresh: a full replot, which also clears QCustomPlot's
    // "replot queued" flag); a replot queued before (refresh()'s rpQueuedReplot, the plot's only queued calls, as
    // replotNow() assumes) would then redraw the same. Dropped here, before that replot. The same for any other
    // QCustomPlot of the card that filters its events here (the KV bar, KvSharePlot: its first queued replot ran
    // after its first resize replot, a second replot before the first paint; issue 16, twenty-first stop).
    if (event->type() == QEvent::Resize && (watched == m_plot || qobject_cast<QCustomPlot*>(watched)))
        QCoreApplication::removePostedEvents(watched, QEvent::MetaCall);
    return QFrame::eventFilter(watched, event);
}

bool PlotPanel::sameInputsAsDrawn(const QByteArray& inputs)
{
    if (!inputs.isEmpty() && inputs == m_drawnInputs)
        return true;
    m_drawnInputs = inputs;
    return false;
}

void PlotPanel::setTakeaway(const QString& text)
{
    m_takeaway = text;
    renderTitle();
}

void PlotPanel::setWarning(const QString& text)
{
    if (text == m_warning)
        return;
    m_warning = text;
    renderTitle();
}

void PlotPanel::setWarningReplacesTakeaway(bool on)
{
    if (on == m_warningReplacesTakeaway)
        return;
    m_warningReplacesTakeaway = on;
    renderTitle();
}

void PlotPanel::renderTitle()
{
    const double scale = currentTheme().fontScale; // presentation mode: larger titles
    const bool replaced = m_warningReplacesTakeaway && !m_warning.isEmpty();
    const QString warning = m_warning.isEmpty()
        ? QString()
        : QStringLiteral("<span style=\"font-size:%1pt; font-weight:600; color:%2;\">%3</span>%4")
              .arg(9.0 * scale, 0, 'f', 1)
              .arg(palette::css(palette::error()), m_warning.toHtmlEscaped(), replaced ? QString() : QStringLiteral("<br>"));
    // The heading as a block of its own when a line follows it: a new takeaway or warning is then edited into the
    // blocks after it, and QTextEngine, which shapes a changed block whole, leaves the heading's glyphs as they were
    // (issue 16, twentieth stop in docs/performance.md). The same lines at the same places as a line break there gave,
    // pixel for pixel; with nothing after the heading, the line break (and its empty line) as before.
    const bool headingBlock = !m_takeaway.isEmpty() || !m_warning.isEmpty();
    const QString html = QStringLiteral("%6<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                                        "%7%5<span style=\"font-size:%2pt;\">%4</span>")
                             .arg(10.5 * scale, 0, 'f', 1)
                             .arg(9.0 * scale, 0, 'f', 1)
                             .arg(m_heading.toHtmlEscaped(), replaced ? QString() : m_takeaway.toHtmlEscaped(), warning,
                                  headingBlock ? QStringLiteral("<div>") : QString(),
                                  headingBlock ? QStringLiteral("</div>") : QStringLiteral("<br>"));
    if (m_title->text() != html)
        m_title->setTextRepaintingChanges(html);
    const QString toolTip = replaced && !m_takeaway.isEmpty()
        ? m_formulaToolTip + (m_formulaToolTip.isEmpty() ? QString() : QStringLiteral("\n\n")) + tr("Were the weights to fit: %1").arg(m_takeaway)
        : m_formulaToolTip;
    if (m_title->toolTip() != toolTip)
        m_title->setToolTip(toolTip);
    m_title->setAccessibleDescription(takeaway());
}

int deliverLayoutRequests(int maxPasses)
{
    // Counts the LayoutRequests a pass delivers: installed on the application only while the passes run.
    struct Counter final : QObject {
        int delivered = 0;
        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::LayoutRequest)
                ++delivered;
            return QObject::eventFilter(watched, event);
        }
    } counter;
    QCoreApplication* app = QCoreApplication::instance();
    app->installEventFilter(&counter);
    int passes = 0;
    for (; passes < maxPasses; ++passes) {
        counter.delivered = 0;
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (counter.delivered == 0)
            break;
    }
    app->removeEventFilter(&counter);
    return passes;
}

QString weightsFitWarning(const model::Scenario& s, const model::Evaluation& e)
{
    if (e.capacity.weightsFit)
        return {};
    const int gpus = std::max(1, s.hardware.gpus);
    const double usable = s.hardware.memoryBytes * s.serving.memoryUtilization - s.serving.activationReserveBytes;
    return PlotPanel::tr("Does not fit: %1 of weights per GPU > %2 usable (%3 HBM \u00d7 %4%5). No batch can be served; "
                         "the curves show what it would cost if it fitted.")
        .arg(format::gigabytes(e.decode.residentWeightBytes / gpus), format::gigabytes(std::max(0.0, usable)),
             format::gigabytes(s.hardware.memoryBytes), format::plain(s.serving.memoryUtilization),
             s.serving.activationReserveBytes > 0
                 ? PlotPanel::tr(" \u2212 %1 activations").arg(format::gigabytes(s.serving.activationReserveBytes))
                 : QString());
}

} // namespace ridgeline::views
