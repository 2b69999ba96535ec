// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/jsoninput.h"

#include <algorithm>
#include <vector>

#include <QJsonParseError>
#include <QSet>
#include <QString>

#include "model/cost/messagetext.h"

namespace ridgeline::model {

namespace {

/** One open object or array, with its place in its parent for the message's key path. */
struct Frame {
    bool object = false;
    QString label;        // ".name" or "[3]" (empty at the top)
    QSet<QString> keys;   // object: keys seen so far
    QString lastKey;      // object: key of the value being read
    long long index = 0;  // array: index of the value being read
    bool expectKey = true;
};

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/** Decodes the JSON string starting after the quote at @p i; leaves @p i after the closing quote. */
QString readString(const QByteArray& s, qsizetype& i)
{
    QByteArray utf8;
    QString out;
    auto flush = [&] {
        out += QString::fromUtf8(utf8);
        utf8.clear();
    };
    const qsizetype n = s.size();
    while (i < n && s[i] != '"') {
        if (s[i] != '\\') {
            utf8 += s[i++];
            continue;
        }
        if (++i >= n)
            break;
        const char e = s[i++];
        switch (e) {
        case 'b': utf8 += '\b'; break;
        case 'f': utf8 += '\f'; break;
        case 'n': utf8 += '\n'; break;
        case 'r': utf8 += '\r'; break;
        case 't': utf8 += '\t'; break;
        case 'u': {
            int code = 0;
            for (int k = 0; k < 4 && i < n; ++k, ++i)
                code = code * 16 + std::max(0, hexDigit(s[i]));
            flush();
            out += QChar(char16_t(code));
            break;
        }
        default: utf8 += e; break; // \" \\ \/
        }
    }
    flush();
    if (i < n)
        ++i; // the closing quote
    return out;
}

} // namespace

std::string findDuplicateJsonKey(const QByteArray& json)
{
    std::vector<Frame> stack;
    const qsizetype n = json.size();
    qsizetype i = 0;
    while (i < n) {
        const char c = json[i];
        switch (c) {
        case '{':
        case '[': {
            Frame f;
            f.object = c == '{';
            if (!stack.empty())
                f.label = stack.back().object ? QLatin1Char('.') + stack.back().lastKey
                                              : QStringLiteral("[%1]").arg(stack.back().index);
            stack.push_back(std::move(f));
            ++i;
            break;
        }
        case '}':
        case ']':
            if (!stack.empty())
                stack.pop_back();
            ++i;
            break;
        case ',':
            if (!stack.empty()) {
                stack.back().expectKey = true;
                ++stack.back().index;
            }
            ++i;
            break;
        case ':':
            if (!stack.empty())
                stack.back().expectKey = false;
            ++i;
            break;
        case '"': {
            const qsizetype at = i;
            ++i;
            const QString text = readString(json, i);
            if (stack.empty() || !stack.back().object || !stack.back().expectKey)
                break;
            Frame& f = stack.back();
            f.lastKey = text;
            if (f.keys.contains(text)) {
                QString path;
                for (const Frame& g : stack)
                    path += g.label;
                path += QLatin1Char('.') + text;
                if (path.startsWith(QLatin1Char('.')))
                    path.remove(0, 1);
                const long long line = 1 + std::count(json.constBegin(), json.constBegin() + at, '\n');
                return "duplicate key \"" + printableText(path.toStdString()) + "\" (line " + std::to_string(line)
                       + "): each key may appear once in an object";
            }
            f.keys.insert(text);
            break;
        }
        default:
            ++i; // white space, numbers, true, false, null
            break;
        }
    }
    return {};
}

std::string parseJsonInput(const QByteArray& json, QJsonDocument& out)
{
    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return "not valid JSON at byte " + std::to_string(error.offset) + ": " + error.errorString().toStdString();
    if (std::string e = findDuplicateJsonKey(json); !e.empty())
        return e;
    out = std::move(doc);
    return {};
}

} // namespace ridgeline::model
